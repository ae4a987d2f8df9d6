-- The staff animals list's name search counted its matches one index entry per matching animal: "biscuit" at 1M
-- animals read 25,000 entries for its total, four times what the whole request costs at 10k. Animals share names
-- (every Luna, every Biscuit), and an organization has far fewer distinct names than animals, growing much more slowly
-- than they do. The search now works on the distinct names:
--
-- - `animal_name_suffixes`: the suffixes of each space-separated piece of every distinct folded name
--   (`animals.name_search`) an organization's animals have had, with `rep` (what a suffix shares
--   with the name's next suffix in bytes' order, migration 2040), so a word's names come from one prefix range of the
--   index, each name once;
-- - `animal_name_counts`: how many live animals have each name, per status, striped over a few rows per name and
--   status as the other tallies are (the writing backend picks its stripe, so concurrent writers of one name do not
--   queue on one row).
--
-- A word's exact total is then the sum of its names' counts: its cost follows the distinct names the word matches, not
-- the animals. The page of animals is read from the animals themselves (src/modules/animals/repository.ts). The suffix
-- table of every animal (`animal_name_terms`, 5.7 million rows at 1M animals, twenty-odd rows written per new animal)
-- goes.
--
-- A name no animal has any longer keeps its suffixes and counts of zero (a vocabulary only grows; a name comes back
-- often, and its rows are a few dozen bytes). So a name has counts exactly when it has suffixes: the first count of a
-- name is the moment to make them.

CREATE TABLE animal_name_suffixes (
  organization_id text NOT NULL,
  term            text COLLATE "C" NOT NULL,
  name_search     text NOT NULL,
  rep             smallint NOT NULL,
  PRIMARY KEY (organization_id, term, name_search) INCLUDE (rep)
);

CREATE TABLE animal_name_counts (
  organization_id text NOT NULL,
  name_search     text NOT NULL,
  status_id       text NOT NULL,
  stripe          smallint NOT NULL,
  n               bigint NOT NULL,
  PRIMARY KEY (organization_id, name_search, status_id, stripe)
);

-- Read by a prefix range of their index only (see migration 2040 on parallel workers).
ALTER TABLE animal_name_suffixes SET (parallel_workers = 0);
ALTER TABLE animal_name_counts SET (parallel_workers = 0);

-- One animal more (delta 1) or fewer (-1) with a name and status; a name seen for the first time (no counts yet) gets
-- its suffixes. Two writers of one new name may both find no counts: the second waits on the first's suffixes and
-- skips them.
CREATE FUNCTION animal_name_count(org text, nm text, st text, delta int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF nm IS NULL THEN
    RETURN;
  END IF;
  IF delta > 0 AND NOT EXISTS (SELECT 1 FROM animal_name_counts WHERE organization_id = org AND name_search = nm) THEN
    INSERT INTO animal_name_suffixes (organization_id, term, name_search, rep)
    SELECT org, x.term, nm, x.rep FROM ark_search_entries(nm, 1) x
    ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO animal_name_counts (organization_id, name_search, status_id, stripe, n) VALUES (org, nm, st, ark_stripe(4), delta)
  ON CONFLICT (organization_id, name_search, status_id, stripe) DO UPDATE SET n = animal_name_counts.n + EXCLUDED.n;
END;
$$;

CREATE FUNCTION animal_names_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    PERFORM animal_name_count(OLD.organization_id, OLD.name_search, OLD.status_id, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    PERFORM animal_name_count(NEW.organization_id, NEW.name_search, NEW.status_id, 1);
  END IF;
  RETURN NULL;
END;
$$;

-- For bulk loaders that pause the animals' triggers: an organization's suffixes and counts made again from its animals
-- (the suffixes of names no animal has any longer are kept, without counts: a name that comes back finds them).
CREATE FUNCTION animal_names_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM animal_name_counts WHERE organization_id = org;
  INSERT INTO animal_name_suffixes (organization_id, term, name_search, rep)
  SELECT n.organization_id, x.term, n.name_search, x.rep
    FROM (SELECT DISTINCT organization_id, name_search FROM animals
           WHERE organization_id = org AND deleted_at IS NULL AND name_search IS NOT NULL) n,
         ark_search_entries(n.name_search, 1) x
  ON CONFLICT DO NOTHING;
  INSERT INTO animal_name_counts (organization_id, name_search, status_id, stripe, n)
  SELECT organization_id, name_search, status_id, 0, count(*) FROM animals
   WHERE organization_id = org AND deleted_at IS NULL AND name_search IS NOT NULL
   GROUP BY organization_id, name_search, status_id;
$$;

DROP TRIGGER animal_name_terms_ins ON animals;
DROP TRIGGER animal_name_terms_upd ON animals;
DROP FUNCTION animal_name_terms_trigger();
DROP FUNCTION animal_name_terms_rebuild(text);
DROP TABLE animal_name_terms;

INSERT INTO animal_name_suffixes (organization_id, term, name_search, rep)
SELECT n.organization_id, x.term, n.name_search, x.rep
  FROM (SELECT DISTINCT organization_id, name_search FROM animals WHERE deleted_at IS NULL AND name_search IS NOT NULL) n,
       ark_search_entries(n.name_search, 1) x;
INSERT INTO animal_name_counts (organization_id, name_search, status_id, stripe, n)
SELECT organization_id, name_search, status_id, 0, count(*) FROM animals
 WHERE deleted_at IS NULL AND name_search IS NOT NULL
 GROUP BY organization_id, name_search, status_id;

CREATE TRIGGER animal_names_ins AFTER INSERT OR DELETE ON animals FOR EACH ROW EXECUTE FUNCTION animal_names_trigger();
CREATE TRIGGER animal_names_upd AFTER UPDATE ON animals FOR EACH ROW
  WHEN (OLD.name_search IS DISTINCT FROM NEW.name_search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
        OR OLD.status_id IS DISTINCT FROM NEW.status_id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION animal_names_trigger();

-- The animals of one name and status, newest first: a search with few matches reads its page from here.
CREATE INDEX animals_name_order ON animals (organization_id, status_id, name_search, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- Whether a folded name has a word (a LIKE pattern): the name search's walk of the animals newest first checks its words
-- through this. PL/pgSQL, so the planner neither inlines it (it would then read the trigram index, or guess that few
-- animals match and sort every animal of the statuses asked for) nor starts parallel workers (a function is parallel
-- unsafe unless declared otherwise: workers cost a walk of a few thousand rows more than its reads). The call costs
-- next to nothing beside the LIKE itself.
CREATE FUNCTION ark_name_like(name text, pattern text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN name LIKE pattern;
END;
$$;
