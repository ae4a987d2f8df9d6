-- The staff animals list's name search with a status or care state filter read every index entry of its words and
-- kept those of the statuses asked for: at 1M animals, "lun" among the animals in care read the 25,000 entries of
-- every Luna to find none in care. The status now leads the key after the organization, so a filtered search reads
-- only the entries of the statuses it asks for; a search without one reads the range of each of the organization's
-- statuses in turn (one index descent per status, a handful).
--
-- It also counted its matches with a DISTINCT over every entry its word matched (an
-- animal has one entry per suffix of its names, and a word can start several of them: "lu" starts "lulu" and "lu"),
-- and hashing 25,000 entries was most of a common word's search at 1M animals. Each entry now carries `rep`: how many
-- characters it shares with the animal's next suffix in bytes' order. The suffixes a word starts are consecutive in
-- that order, so exactly one of them, the last, shares fewer characters with its successor than the word has: the
-- entries of a word with `rep < length(word)` are its animals, each once, and are counted without a DISTINCT.

-- How many leading characters two texts share (0 when the second is null).
CREATE FUNCTION ark_common_prefix(a text, b text) RETURNS int LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n int := least(length(a), length(b));
  i int := 1;
BEGIN
  IF a IS NULL OR b IS NULL THEN
    RETURN 0;
  END IF;
  WHILE i <= n AND substr(a, i, 1) = substr(b, i, 1) LOOP
    i := i + 1;
  END LOOP;
  RETURN i - 1;
END;
$$;

-- The suffixes of ark_search_suffixes, each with what it shares with the next one in bytes' order.
CREATE FUNCTION ark_search_entries(t text, min_len int) RETURNS TABLE (term text, word boolean, rep int)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT x.term, x.word, ark_common_prefix(x.term, lead(x.term) OVER (ORDER BY x.term COLLATE "C"))
    FROM ark_search_suffixes(t, min_len) x
$$;

ALTER TABLE animal_name_terms ADD COLUMN rep smallint NOT NULL DEFAULT 0;

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
    INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id, rep)
    SELECT NEW.organization_id, x.term, NEW.id, NEW.created_at, NEW.status_id, x.rep FROM ark_search_entries(NEW.name_search, 1) x;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION animal_name_terms_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM animal_name_terms WHERE organization_id = org;
  INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id, rep)
  SELECT a.organization_id, x.term, a.id, a.created_at, a.status_id, x.rep
    FROM animals a, ark_search_entries(a.name_search, 1) x WHERE a.organization_id = org AND a.deleted_at IS NULL
   ORDER BY a.status_id, x.term;
$$;

-- Every organization's entries made again with `rep`, without the index (built once at the end).
ALTER TABLE animal_name_terms DROP CONSTRAINT animal_name_terms_pkey;
TRUNCATE animal_name_terms;
INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id, rep)
SELECT a.organization_id, x.term, a.id, a.created_at, a.status_id, x.rep
  FROM animals a, ark_search_entries(a.name_search, 1) x WHERE a.deleted_at IS NULL;
ALTER TABLE animal_name_terms ALTER COLUMN rep DROP DEFAULT;
ALTER TABLE animal_name_terms ADD PRIMARY KEY (organization_id, status_id, term, animal_id) INCLUDE (created_at, rep);

-- Neither suffix table is read but by a prefix range of its index, which parallel workers only
-- slow down (starting them cost a 1M-animal people search more than its scan); a prepared statement's generic plan
-- cannot see how narrow the range is and chose them.
ALTER TABLE animal_name_terms SET (parallel_workers = 0);
ALTER TABLE people_search_terms SET (parallel_workers = 0);
