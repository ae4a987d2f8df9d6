-- The staff animals list's name search with a status or care state filter read every index entry of its words and
-- kept those of the statuses asked for: at 1M animals, "lun" among the animals in care read the 25,000 entries of
-- every Luna to find none in care. The status now leads the key after the organization, so a filtered search reads
-- only the entries of the statuses it asks for; a search without one reads the range of each of the organization's
-- statuses in turn (one index descent per status, a handful).
ALTER TABLE animal_name_terms DROP CONSTRAINT animal_name_terms_pkey;
ALTER TABLE animal_name_terms ADD PRIMARY KEY (organization_id, status_id, term, animal_id) INCLUDE (created_at);

CREATE OR REPLACE FUNCTION animal_name_terms_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.deleted_at IS NULL AND NEW.deleted_at IS NULL AND OLD.name_search IS NOT DISTINCT FROM NEW.name_search
     AND OLD.created_at = NEW.created_at AND OLD.id = NEW.id AND OLD.organization_id = NEW.organization_id THEN
    -- Only the status moved: the same rows, the new status.
    UPDATE animal_name_terms s SET status_id = NEW.status_id FROM ark_search_suffixes(NEW.name_search, 1) x
     WHERE s.organization_id = NEW.organization_id AND s.status_id = OLD.status_id AND s.term = x.term AND s.animal_id = NEW.id;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    DELETE FROM animal_name_terms s USING ark_search_suffixes(OLD.name_search, 1) x
     WHERE s.organization_id = OLD.organization_id AND s.status_id = OLD.status_id AND s.term = x.term AND s.animal_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id)
    SELECT NEW.organization_id, x.term, NEW.id, NEW.created_at, NEW.status_id FROM ark_search_suffixes(NEW.name_search, 1) x;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION animal_name_terms_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM animal_name_terms WHERE organization_id = org;
  INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id)
  SELECT a.organization_id, x.term, a.id, a.created_at, a.status_id
    FROM animals a, ark_search_suffixes(a.name_search, 1) x WHERE a.organization_id = org AND a.deleted_at IS NULL
   ORDER BY a.status_id, x.term;
$$;

-- Neither suffix table is read but by a prefix range of a few thousand entries at most, which parallel workers only
-- slow down (starting them cost a 1M-animal people search more than its scan); a prepared statement's generic plan
-- cannot see how narrow the range is and chose them.
ALTER TABLE animal_name_terms SET (parallel_workers = 0);
ALTER TABLE people_search_terms SET (parallel_workers = 0);
