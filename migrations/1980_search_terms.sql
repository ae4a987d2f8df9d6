-- The search boxes of the people list (`q`) and the staff animals list (`q`), served from narrow trigger-kept tables
-- of suffixes under a btree, so the exact total and the first page cost the matching index entries, not heap pages.
--
-- A word of `q` matches where it is part of the folded search text. The text is cut at its spaces into pieces; a word
-- (which holds no space) is part of the text exactly when it starts one of the pieces' suffixes, so each suffix is one
-- row, (organization, suffix, owner), and a word is found by a prefix range on the suffix (collation "C", so the range
-- is the bytes' order). `word` says the suffix starts a word (a letter, digit or underscore after anything else or the
-- start): with the characters after the match it tells a whole-word match (the people list's relevance) from the entry
-- alone. Only live rows have suffixes; a change of the text, of the deletion mark (a merge, an undo, an erasure) or of
-- a copied column rewrites the owner's rows in the same transaction.

-- The suffixes of a folded text from `min_len` characters, each once, and whether it starts a word.
CREATE FUNCTION ark_search_suffixes(t text, min_len int) RETURNS TABLE (term text, word boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substr(c, i) COLLATE "C", bool_or(substr(c, i, 1) ~ '[[:alnum:]_]' AND (i = 1 OR substr(c, i - 1, 1) !~ '[[:alnum:]_]'))
    FROM regexp_split_to_table(coalesce(t, ''), ' ') c, generate_series(1, length(c) - min_len + 1) i
   WHERE length(c) >= min_len
   GROUP BY 1
$$;

-- People: suffixes of three characters or more of `people.search` (names, email, phone and its digits). A word of
-- fewer than three characters, or one that folding could change, is matched on the people rows as before.
CREATE TABLE people_search_terms (
  organization_id text NOT NULL,
  term            text COLLATE "C" NOT NULL,
  person_id       text NOT NULL,
  created_at      timestamptz NOT NULL,
  word            boolean NOT NULL,
  PRIMARY KEY (organization_id, term, person_id) INCLUDE (created_at, word)
);

CREATE FUNCTION people_search_terms_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    DELETE FROM people_search_terms s USING ark_search_suffixes(OLD.search, 3) x
     WHERE s.organization_id = OLD.organization_id AND s.term = x.term AND s.person_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    INSERT INTO people_search_terms (organization_id, term, person_id, created_at, word)
    SELECT NEW.organization_id, x.term, NEW.id, NEW.created_at, x.word FROM ark_search_suffixes(NEW.search, 3) x;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER people_search_terms_ins AFTER INSERT OR DELETE ON people FOR EACH ROW EXECUTE FUNCTION people_search_terms_trigger();
CREATE TRIGGER people_search_terms_upd AFTER UPDATE ON people FOR EACH ROW
  WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION people_search_terms_trigger();

-- Made again for one organization (after a bulk load with the triggers paused).
CREATE FUNCTION people_search_terms_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM people_search_terms WHERE organization_id = org;
  INSERT INTO people_search_terms (organization_id, term, person_id, created_at, word)
  SELECT p.organization_id, x.term, p.id, p.created_at, x.word
    FROM people p, ark_search_suffixes(p.search, 3) x WHERE p.organization_id = org AND p.deleted_at IS NULL
   ORDER BY x.term;
$$;
SELECT people_search_terms_rebuild(id) FROM organizations;

-- Animals: every suffix of `animals.name_search` (the folded working and public names, short), with the status, so
-- the words and a status or care state filter are answered from the index alone.
CREATE TABLE animal_name_terms (
  organization_id text NOT NULL,
  term            text COLLATE "C" NOT NULL,
  animal_id       text NOT NULL,
  created_at      timestamptz NOT NULL,
  status_id       text NOT NULL,
  PRIMARY KEY (organization_id, term, animal_id) INCLUDE (created_at, status_id)
);

CREATE FUNCTION animal_name_terms_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.deleted_at IS NULL AND NEW.deleted_at IS NULL AND OLD.name_search IS NOT DISTINCT FROM NEW.name_search
     AND OLD.created_at = NEW.created_at AND OLD.id = NEW.id AND OLD.organization_id = NEW.organization_id THEN
    -- Only the status moved: the same rows, the new status.
    UPDATE animal_name_terms s SET status_id = NEW.status_id FROM ark_search_suffixes(NEW.name_search, 1) x
     WHERE s.organization_id = NEW.organization_id AND s.term = x.term AND s.animal_id = NEW.id;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    DELETE FROM animal_name_terms s USING ark_search_suffixes(OLD.name_search, 1) x
     WHERE s.organization_id = OLD.organization_id AND s.term = x.term AND s.animal_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id)
    SELECT NEW.organization_id, x.term, NEW.id, NEW.created_at, NEW.status_id FROM ark_search_suffixes(NEW.name_search, 1) x;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER animal_name_terms_ins AFTER INSERT OR DELETE ON animals FOR EACH ROW EXECUTE FUNCTION animal_name_terms_trigger();
CREATE TRIGGER animal_name_terms_upd AFTER UPDATE ON animals FOR EACH ROW
  WHEN (OLD.name_search IS DISTINCT FROM NEW.name_search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
        OR OLD.status_id IS DISTINCT FROM NEW.status_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION animal_name_terms_trigger();

CREATE FUNCTION animal_name_terms_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM animal_name_terms WHERE organization_id = org;
  INSERT INTO animal_name_terms (organization_id, term, animal_id, created_at, status_id)
  SELECT a.organization_id, x.term, a.id, a.created_at, a.status_id
    FROM animals a, ark_search_suffixes(a.name_search, 1) x WHERE a.organization_id = org AND a.deleted_at IS NULL
   ORDER BY x.term;
$$;
SELECT animal_name_terms_rebuild(id) FROM organizations;
