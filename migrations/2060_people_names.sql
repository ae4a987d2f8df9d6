-- The people list's search counted its matches one index entry per matching suffix: "smith" at 300,000 people read
-- 6,000 entries (each Smith's last name and the "smith" in their email), grouped them by person and ranked them, eight
-- times what the same search costs at 3,000 people. People share names as animals do, and a person's email and phone
-- mostly repeat their name; what is theirs alone rarely holds a common word. The search now works on:
--
-- - `people.name_search`: the folded "first last";
-- - `people_name_suffixes`: the suffixes (three characters or more) of the pieces of every distinct folded name an
--   organization's people have had, each with whether it starts a word, so a word's names come from one prefix range;
-- - `people_name_counts`: how many live people have each name, striped as the other tallies are;
-- - `people_contact_terms`: the suffixes of each live person's folded email, phone and the phone's digits (the rest of
--   `people.search`), each with `nlen`, how many of its first characters are also part of the person's name (at most
--   40), leading the key after the organization. A word is part of a person's name exactly when every suffix of their
--   contact text that it starts has an `nlen` of at least the word's length; a prefix range read for each `nlen` below
--   the word's length therefore finds exactly the people a word matches through their email or phone alone.
--
-- A word's exact total is then the sum of its names' counts plus those contact-only matches: it costs the distinct
-- names a word matches and the people it matches beyond their names, not every person whose email repeats their name.
-- The suffix table of the whole search text (`people_search_terms`) goes; the trigram index of `people.search` stays
-- for words the tables cannot answer (fewer than three characters, or characters that folding could change).
--
-- A name no person has any longer keeps its suffixes and counts of zero (a vocabulary only grows): a name has counts
-- exactly when it has suffixes, so its first count is the moment to make them.

ALTER TABLE people ADD COLUMN name_search text GENERATED ALWAYS AS (ark_fold(first_name || ' ' || last_name)) STORED;

-- The people of one name, newest first: a search's page reads each matching name's people from here.
CREATE INDEX people_name_order ON people (organization_id, name_search, created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE people_name_suffixes (
  organization_id text NOT NULL,
  term            text COLLATE "C" NOT NULL,
  name_search     text NOT NULL,
  word            boolean NOT NULL,
  PRIMARY KEY (organization_id, term, name_search) INCLUDE (word)
);

CREATE TABLE people_name_counts (
  organization_id text NOT NULL,
  name_search     text NOT NULL,
  stripe          smallint NOT NULL,
  n               bigint NOT NULL,
  PRIMARY KEY (organization_id, name_search, stripe)
);

CREATE TABLE people_contact_terms (
  organization_id text NOT NULL,
  nlen            smallint NOT NULL,
  term            text COLLATE "C" NOT NULL,
  person_id       text NOT NULL,
  created_at      timestamptz NOT NULL,
  word            boolean NOT NULL,
  PRIMARY KEY (organization_id, nlen, term, person_id) INCLUDE (created_at, word)
);

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    PERFORM create_distributed_table('people_name_suffixes', 'organization_id', colocate_with => 'roles');
    PERFORM create_distributed_table('people_name_counts', 'organization_id', colocate_with => 'roles');
    PERFORM create_distributed_table('people_contact_terms', 'organization_id', colocate_with => 'roles');
  END IF;
END $$;

-- Read by prefix ranges of their indexes only (see migration 2040 on parallel workers).
ALTER TABLE people_name_suffixes SET (parallel_workers = 0);
ALTER TABLE people_name_counts SET (parallel_workers = 0);
ALTER TABLE people_contact_terms SET (parallel_workers = 0);

-- The part of `people.search` after the names: the email, the phone as stored and its digits, folded.
CREATE FUNCTION ark_person_contact(email text, phone text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ark_fold(coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '\D', '', 'g'))
$$;

-- How many of `term`'s first characters (at most 40) are also part of `name`. Part of the name is monotone (a prefix of
-- a part is a part), so the count stops at the first prefix that is not.
CREATE FUNCTION ark_name_overlap(term text, name text) RETURNS smallint LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  k int := 0;
  n int := least(length(term), 40);
BEGIN
  IF name IS NULL OR name = '' THEN
    RETURN 0;
  END IF;
  WHILE k < n AND strpos(name, substr(term, 1, k + 1)) > 0 LOOP
    k := k + 1;
  END LOOP;
  RETURN k;
END;
$$;

-- A person's contact suffixes as `people_contact_terms` keys them: each with its `nlen` against the person's name.
CREATE FUNCTION people_contact_entries(email text, phone text, name text) RETURNS TABLE (nlen smallint, term text, word boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ark_name_overlap(x.term, name), x.term, x.word FROM ark_search_suffixes(ark_person_contact(email, phone), 3) x
$$;

-- One person more (delta 1) or fewer (-1) with a name; a name seen for the first time (no counts yet) gets its
-- suffixes. Two writers of one new name may both find no counts: the second waits on the first's suffixes and skips
-- them.
CREATE FUNCTION people_name_count(org text, nm text, delta int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta > 0 AND NOT EXISTS (SELECT 1 FROM people_name_counts WHERE organization_id = org AND name_search = nm) THEN
    INSERT INTO people_name_suffixes (organization_id, term, name_search, word)
    SELECT org, x.term, nm, x.word FROM ark_search_suffixes(nm, 3) x
    ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO people_name_counts (organization_id, name_search, stripe, n) VALUES (org, nm, ark_stripe(4), delta)
  ON CONFLICT (organization_id, name_search, stripe) DO UPDATE SET n = people_name_counts.n + EXCLUDED.n;
END;
$$;

CREATE FUNCTION people_search_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    IF TG_OP = 'DELETE' OR NEW.deleted_at IS NOT NULL OR OLD.name_search IS DISTINCT FROM NEW.name_search
       OR OLD.organization_id IS DISTINCT FROM NEW.organization_id THEN
      PERFORM people_name_count(OLD.organization_id, OLD.name_search, -1);
    END IF;
    DELETE FROM people_contact_terms s USING people_contact_entries(OLD.email, OLD.phone, OLD.name_search) x
     WHERE s.organization_id = OLD.organization_id AND s.nlen = x.nlen AND s.term = x.term AND s.person_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    IF TG_OP = 'INSERT' OR OLD.deleted_at IS NOT NULL OR OLD.name_search IS DISTINCT FROM NEW.name_search
       OR OLD.organization_id IS DISTINCT FROM NEW.organization_id THEN
      PERFORM people_name_count(NEW.organization_id, NEW.name_search, 1);
    END IF;
    INSERT INTO people_contact_terms (organization_id, nlen, term, person_id, created_at, word)
    SELECT NEW.organization_id, x.nlen, x.term, NEW.id, NEW.created_at, x.word
      FROM people_contact_entries(NEW.email, NEW.phone, NEW.name_search) x;
  END IF;
  RETURN NULL;
END;
$$;

-- For bulk loaders that pause the people's triggers: an organization's name counts made again from its people, and the
-- suffixes of names seen for the first time (those of names no person has any longer are kept, without counts).
CREATE FUNCTION people_names_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM people_name_counts WHERE organization_id = org;
  INSERT INTO people_name_suffixes (organization_id, term, name_search, word)
  SELECT n.organization_id, x.term, n.name_search, x.word
    FROM (SELECT DISTINCT organization_id, name_search FROM people WHERE organization_id = org AND deleted_at IS NULL) n,
         ark_search_suffixes(n.name_search, 3) x
  ON CONFLICT DO NOTHING;
  INSERT INTO people_name_counts (organization_id, name_search, stripe, n)
  SELECT organization_id, name_search, 0, count(*) FROM people
   WHERE organization_id = org AND deleted_at IS NULL GROUP BY organization_id, name_search;
$$;

-- The same, and every live person's contact suffixes made again.
CREATE FUNCTION people_search_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  SELECT people_names_rebuild(org);
  DELETE FROM people_contact_terms WHERE organization_id = org;
  INSERT INTO people_contact_terms (organization_id, nlen, term, person_id, created_at, word)
  SELECT p.organization_id, x.nlen, x.term, p.id, p.created_at, x.word
    FROM people p, people_contact_entries(p.email, p.phone, p.name_search) x
   WHERE p.organization_id = org AND p.deleted_at IS NULL
   ORDER BY 2, 3;
$$;

DROP TRIGGER people_search_terms_ins ON people;
DROP TRIGGER people_search_terms_upd ON people;
DROP FUNCTION people_search_terms_trigger();
DROP FUNCTION people_search_terms_rebuild(text);
DROP TABLE people_search_terms;

SELECT people_search_rebuild(id) FROM organizations;

CREATE TRIGGER people_search_ins AFTER INSERT OR DELETE ON people FOR EACH ROW EXECUTE FUNCTION people_search_trigger();
CREATE TRIGGER people_search_upd AFTER UPDATE ON people FOR EACH ROW
  WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.id IS DISTINCT FROM NEW.id
        OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION people_search_trigger();
