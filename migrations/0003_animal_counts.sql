-- Exact live counts of animals per species and status, kept by trigger in the same transaction
-- as the change, so a list filtered by species/status/care state totals without a scan.
CREATE TABLE animal_counts (
  organization_id text NOT NULL REFERENCES organizations(id),
  species_key text NOT NULL,
  status_id   text NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, species_key, status_id)
);

CREATE FUNCTION animal_counts_bump(org text, sp text, st text, delta int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO animal_counts (organization_id, species_key, status_id, n) VALUES (org, sp, st, delta)
  ON CONFLICT (organization_id, species_key, status_id) DO UPDATE SET n = animal_counts.n + EXCLUDED.n;
$$;

CREATE FUNCTION animal_counts_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_live boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
  new_live boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND old_live = new_live AND OLD.species_key = NEW.species_key AND OLD.status_id = NEW.status_id THEN
    RETURN NULL;
  END IF;
  -- Touch the two counter rows in key order so concurrent opposite moves cannot deadlock.
  IF old_live AND new_live AND (NEW.species_key, NEW.status_id) < (OLD.species_key, OLD.status_id) THEN
    PERFORM animal_counts_bump(NEW.organization_id, NEW.species_key, NEW.status_id, 1);
    PERFORM animal_counts_bump(OLD.organization_id, OLD.species_key, OLD.status_id, -1);
    RETURN NULL;
  END IF;
  IF old_live THEN PERFORM animal_counts_bump(OLD.organization_id, OLD.species_key, OLD.status_id, -1); END IF;
  IF new_live THEN PERFORM animal_counts_bump(NEW.organization_id, NEW.species_key, NEW.status_id, 1); END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER animals_counts AFTER INSERT OR UPDATE OR DELETE ON animals FOR EACH ROW EXECUTE FUNCTION animal_counts_trigger();

INSERT INTO animal_counts (organization_id, species_key, status_id, n)
SELECT organization_id, species_key, status_id, count(*) FROM animals WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
