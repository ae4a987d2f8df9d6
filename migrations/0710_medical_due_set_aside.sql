-- Due items of an animal that has left care are set aside: an outcome sets them aside, the next intake brings them
-- back. The organization's "due or overdue" list then walks only items of animals in care, however long the history:
-- without this every request read past every item an adopted animal never had done (8,000 rows for one page at
-- 100,000 animals).
ALTER TABLE medical_due ADD COLUMN set_aside boolean NOT NULL DEFAULT false;
UPDATE medical_due d SET set_aside = true
 WHERE d.completed_at IS NULL
   AND NOT EXISTS (SELECT 1 FROM animal_stays s
                    WHERE s.organization_id = d.organization_id AND s.animal_id = d.animal_id AND s.outcome_at IS NULL);
DROP INDEX medical_due_open;
DROP INDEX medical_due_open_kind;
DROP INDEX medical_due_open_species;
CREATE INDEX medical_due_open ON medical_due (organization_id, due_on, id) WHERE completed_at IS NULL AND NOT set_aside;
CREATE INDEX medical_due_open_kind ON medical_due (organization_id, kind, due_on, id) WHERE completed_at IS NULL AND NOT set_aside;
CREATE INDEX medical_due_open_species ON medical_due (organization_id, species, due_on, id) WHERE completed_at IS NULL AND NOT set_aside;
