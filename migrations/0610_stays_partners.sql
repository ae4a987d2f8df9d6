-- An intake from, or an outcome to, an outside organization on file (partners module, 1210).
ALTER TABLE animal_stays ADD COLUMN source_partner_id text, ADD COLUMN destination_partner_id text;
