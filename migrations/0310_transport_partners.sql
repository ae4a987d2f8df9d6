-- A transport run handled by an outside organization on file (partners module, 1210).
ALTER TABLE transport_runs ADD COLUMN partner_id text;
