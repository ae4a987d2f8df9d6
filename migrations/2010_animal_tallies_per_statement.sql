-- New animals bump their organization's tally rows once per statement rather than once per row: a batch of new
-- animals written by one statement (an import's) adds its count to each tally row it touches once, so the rows'
-- versions do not chain within the batch's transaction. The insert trigger reads the statement's new rows (a
-- transition table), grouped by the tallies' key and touched in key order (as the row trigger does, so concurrent
-- writers cannot deadlock). Deletes and updates keep the row trigger (animals_counts, animals_counts_update).
CREATE FUNCTION animal_tallies_insert_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE s smallint := ark_stripe(16);
BEGIN
  INSERT INTO animal_tallies (organization_id, species_key, status_id, is_public, stripe, n)
  SELECT organization_id, species_key, status_id, is_public, s, count(*) FROM new_animals WHERE deleted_at IS NULL
   GROUP BY organization_id, species_key, status_id, is_public ORDER BY organization_id, species_key, status_id, is_public
  ON CONFLICT (organization_id, species_key, status_id, is_public, stripe) DO UPDATE SET n = animal_tallies.n + EXCLUDED.n;
  INSERT INTO animal_location_tallies (organization_id, location_id, species_key, status_id, is_public, stripe, n)
  SELECT organization_id, location_id, species_key, status_id, is_public, s, count(*) FROM new_animals
   WHERE deleted_at IS NULL AND location_id IS NOT NULL
   GROUP BY organization_id, location_id, species_key, status_id, is_public
   ORDER BY organization_id, location_id, species_key, status_id, is_public
  ON CONFLICT (organization_id, location_id, species_key, status_id, is_public, stripe)
    DO UPDATE SET n = animal_location_tallies.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;

DROP TRIGGER animals_counts ON animals;
CREATE TRIGGER animals_counts AFTER DELETE ON animals FOR EACH ROW EXECUTE FUNCTION animal_tallies_trigger();
CREATE TRIGGER animals_counts_insert AFTER INSERT ON animals REFERENCING NEW TABLE AS new_animals
  FOR EACH STATEMENT EXECUTE FUNCTION animal_tallies_insert_statement();
