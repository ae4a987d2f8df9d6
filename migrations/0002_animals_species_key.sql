-- Species filters compare case-insensitively. A stored lower-case copy lets the list count be an
-- index-only scan (an expression index on lower(species) cannot serve one).
ALTER TABLE animals ADD COLUMN species_key text GENERATED ALWAYS AS (lower(species)) STORED;
CREATE INDEX animals_filter ON animals (organization_id, species_key, status_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
DROP INDEX animals_species_status;
CREATE INDEX animals_status_order ON animals (organization_id, status_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
DROP INDEX animals_status;
