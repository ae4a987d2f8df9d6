-- Exact list totals that do not grow with the organization's size.
--
-- Every low-cardinality filter dimension of the animals, people and donations lists is tallied by
-- trigger in the same transaction as the change. A total is the sum of the tally rows that match
-- the filter. Each tally key is striped over several rows (the writing backend picks its stripe
-- from its process id), so concurrent writes of the same kind of record do not queue on one row
-- lock until COMMIT; readers sum the stripes.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- Animals -----------------------------------------------------------------------------------------

DROP TRIGGER animals_counts ON animals;
DROP FUNCTION animal_counts_trigger();
DROP FUNCTION animal_counts_bump(text, text, text, int);
DROP TABLE animal_counts;

-- Per (species, status, public flag): serves every filter except location and microchip.
CREATE TABLE animal_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  species_key text NOT NULL,
  status_id   text NOT NULL,
  is_public   boolean NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, species_key, status_id, is_public, stripe)
);
-- The same per location, for animals that have one: a location filter sums one location's rows.
CREATE TABLE animal_location_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  location_id text NOT NULL,
  species_key text NOT NULL,
  status_id   text NOT NULL,
  is_public   boolean NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, location_id, species_key, status_id, is_public, stripe)
);

CREATE FUNCTION ark_stripe(stripes int) RETURNS smallint LANGUAGE sql VOLATILE AS $$ SELECT (pg_backend_pid() % stripes)::smallint $$;

CREATE FUNCTION animal_tallies_bump(org text, sp text, st text, pub boolean, loc text, delta int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE s smallint := ark_stripe(16);
BEGIN
  INSERT INTO animal_tallies (organization_id, species_key, status_id, is_public, stripe, n) VALUES (org, sp, st, pub, s, delta)
  ON CONFLICT (organization_id, species_key, status_id, is_public, stripe) DO UPDATE SET n = animal_tallies.n + EXCLUDED.n;
  IF loc IS NOT NULL THEN
    INSERT INTO animal_location_tallies (organization_id, location_id, species_key, status_id, is_public, stripe, n) VALUES (org, loc, sp, st, pub, s, delta)
    ON CONFLICT (organization_id, location_id, species_key, status_id, is_public, stripe) DO UPDATE SET n = animal_location_tallies.n + EXCLUDED.n;
  END IF;
END;
$$;

CREATE FUNCTION animal_tallies_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_live boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
  new_live boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND old_live = new_live AND OLD.species_key = NEW.species_key AND OLD.status_id = NEW.status_id
     AND OLD.is_public = NEW.is_public AND OLD.location_id IS NOT DISTINCT FROM NEW.location_id THEN
    RETURN NULL;
  END IF;
  -- Touch the tally rows in key order so concurrent opposite moves cannot deadlock.
  IF old_live AND new_live AND (NEW.species_key, NEW.status_id, NEW.is_public, coalesce(NEW.location_id, ''))
                              < (OLD.species_key, OLD.status_id, OLD.is_public, coalesce(OLD.location_id, '')) THEN
    PERFORM animal_tallies_bump(NEW.organization_id, NEW.species_key, NEW.status_id, NEW.is_public, NEW.location_id, 1);
    PERFORM animal_tallies_bump(OLD.organization_id, OLD.species_key, OLD.status_id, OLD.is_public, OLD.location_id, -1);
    RETURN NULL;
  END IF;
  IF old_live THEN PERFORM animal_tallies_bump(OLD.organization_id, OLD.species_key, OLD.status_id, OLD.is_public, OLD.location_id, -1); END IF;
  IF new_live THEN PERFORM animal_tallies_bump(NEW.organization_id, NEW.species_key, NEW.status_id, NEW.is_public, NEW.location_id, 1); END IF;
  RETURN NULL;
END;
$$;

-- Keeps its old name so bulk loaders can pause it (ALTER TABLE animals DISABLE TRIGGER animals_counts)
-- and then call animal_tallies_rebuild(org).
CREATE TRIGGER animals_counts AFTER INSERT OR UPDATE OR DELETE ON animals FOR EACH ROW EXECUTE FUNCTION animal_tallies_trigger();

CREATE FUNCTION animal_tallies_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM animal_tallies WHERE organization_id = org;
  DELETE FROM animal_location_tallies WHERE organization_id = org;
  INSERT INTO animal_tallies (organization_id, species_key, status_id, is_public, stripe, n)
  SELECT organization_id, species_key, status_id, is_public, 0, count(*) FROM animals
   WHERE organization_id = org AND deleted_at IS NULL GROUP BY 1, 2, 3, 4;
  INSERT INTO animal_location_tallies (organization_id, location_id, species_key, status_id, is_public, stripe, n)
  SELECT organization_id, location_id, species_key, status_id, is_public, 0, count(*) FROM animals
   WHERE organization_id = org AND deleted_at IS NULL AND location_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
$$;
SELECT animal_tallies_rebuild(id) FROM organizations;

-- Pages in list order for the location filter and the public listing (the adoptable list).
DROP INDEX animals_location;
CREATE INDEX animals_location_order ON animals (organization_id, location_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX animals_public_status ON animals (organization_id, status_id, created_at DESC, id DESC) WHERE deleted_at IS NULL AND is_public;
CREATE INDEX animals_public ON animals (organization_id, created_at DESC, id DESC) WHERE deleted_at IS NULL AND is_public;

-- People ------------------------------------------------------------------------------------------

-- Per set of roles: a role filter (any of several roles) sums the sets that contain one of them.
CREATE TABLE people_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  roles       text[] NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, roles, stripe)
);

CREATE FUNCTION people_tallies_bump(org text, r text[], delta int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO people_tallies (organization_id, roles, stripe, n)
  VALUES (org, ARRAY(SELECT DISTINCT x FROM unnest(r) x ORDER BY x), ark_stripe(16), delta)
  ON CONFLICT (organization_id, roles, stripe) DO UPDATE SET n = people_tallies.n + EXCLUDED.n;
$$;

CREATE FUNCTION people_tallies_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_live boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
  new_live boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND old_live = new_live AND OLD.roles = NEW.roles THEN RETURN NULL; END IF;
  IF old_live AND new_live AND NEW.roles < OLD.roles THEN
    PERFORM people_tallies_bump(NEW.organization_id, NEW.roles, 1);
    PERFORM people_tallies_bump(OLD.organization_id, OLD.roles, -1);
    RETURN NULL;
  END IF;
  IF old_live THEN PERFORM people_tallies_bump(OLD.organization_id, OLD.roles, -1); END IF;
  IF new_live THEN PERFORM people_tallies_bump(NEW.organization_id, NEW.roles, 1); END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER people_counts AFTER INSERT OR UPDATE OR DELETE ON people FOR EACH ROW EXECUTE FUNCTION people_tallies_trigger();

CREATE FUNCTION people_tallies_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM people_tallies WHERE organization_id = org;
  INSERT INTO people_tallies (organization_id, roles, stripe, n)
  SELECT organization_id, r, 0, count(*) FROM (
    SELECT organization_id, ARRAY(SELECT DISTINCT x FROM unnest(roles) x ORDER BY x) AS r FROM people
     WHERE organization_id = org AND deleted_at IS NULL) p GROUP BY 1, 2;
$$;
SELECT people_tallies_rebuild(id) FROM organizations;

-- The search box: one folded text (accents and case removed) of the names, email, phone as stored
-- and the phone's digits, under a trigram index, so `q` reads only the rows that match.
CREATE FUNCTION ark_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  SET search_path = public, pg_catalog
  AS $$ SELECT lower(unaccent('unaccent'::regdictionary, t)) $$;

ALTER TABLE people ADD COLUMN search text GENERATED ALWAYS AS (
  ark_fold(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '\D', '', 'g'))
) STORED;
CREATE INDEX people_search ON people USING gin (search gin_trgm_ops) WHERE deleted_at IS NULL;

-- Donations ---------------------------------------------------------------------------------------

-- Per (day, type, campaign): a date range sums its days (dates are whole days, so exactly).
CREATE TABLE donation_day_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  day         date NOT NULL,
  type        text NOT NULL,
  campaign_key text NOT NULL,   -- '' for no campaign
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, type, campaign_key, stripe)
);
-- Per (type, campaign) over all days: the list without a date range.
CREATE TABLE donation_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  type        text NOT NULL,
  campaign_key text NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, type, campaign_key, stripe)
);

CREATE FUNCTION donation_tallies_bump(org text, d date, t text, c text, delta int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE s smallint := ark_stripe(8);
BEGIN
  INSERT INTO donation_tallies (organization_id, type, campaign_key, stripe, n) VALUES (org, t, coalesce(c, ''), s, delta)
  ON CONFLICT (organization_id, type, campaign_key, stripe) DO UPDATE SET n = donation_tallies.n + EXCLUDED.n;
  INSERT INTO donation_day_tallies (organization_id, day, type, campaign_key, stripe, n) VALUES (org, d, t, coalesce(c, ''), s, delta)
  ON CONFLICT (organization_id, day, type, campaign_key, stripe) DO UPDATE SET n = donation_day_tallies.n + EXCLUDED.n;
END;
$$;

CREATE FUNCTION donation_tallies_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_live boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
  new_live boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND old_live = new_live AND OLD.date = NEW.date AND OLD.type = NEW.type
     AND OLD.campaign_id IS NOT DISTINCT FROM NEW.campaign_id THEN
    RETURN NULL;
  END IF;
  IF old_live AND new_live AND (NEW.type, coalesce(NEW.campaign_id, ''), NEW.date) < (OLD.type, coalesce(OLD.campaign_id, ''), OLD.date) THEN
    PERFORM donation_tallies_bump(NEW.organization_id, NEW.date, NEW.type, NEW.campaign_id, 1);
    PERFORM donation_tallies_bump(OLD.organization_id, OLD.date, OLD.type, OLD.campaign_id, -1);
    RETURN NULL;
  END IF;
  IF old_live THEN PERFORM donation_tallies_bump(OLD.organization_id, OLD.date, OLD.type, OLD.campaign_id, -1); END IF;
  IF new_live THEN PERFORM donation_tallies_bump(NEW.organization_id, NEW.date, NEW.type, NEW.campaign_id, 1); END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER donations_counts AFTER INSERT OR UPDATE OR DELETE ON donations FOR EACH ROW EXECUTE FUNCTION donation_tallies_trigger();

CREATE FUNCTION donation_tallies_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM donation_tallies WHERE organization_id = org;
  DELETE FROM donation_day_tallies WHERE organization_id = org;
  INSERT INTO donation_tallies (organization_id, type, campaign_key, stripe, n)
  SELECT organization_id, type, coalesce(campaign_id, ''), 0, count(*) FROM donations
   WHERE organization_id = org AND deleted_at IS NULL GROUP BY 1, 2, 3;
  INSERT INTO donation_day_tallies (organization_id, day, type, campaign_key, stripe, n)
  SELECT organization_id, date, type, coalesce(campaign_id, ''), 0, count(*) FROM donations
   WHERE organization_id = org AND deleted_at IS NULL GROUP BY 1, 2, 3, 4;
$$;
SELECT donation_tallies_rebuild(id) FROM organizations;

-- A donor's or an animal's donations, counted and paged from the index alone (date in the key).
DROP INDEX donations_donor;
CREATE INDEX donations_donor ON donations (organization_id, donor_id, date DESC, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX donations_animal ON donations (organization_id, animal_id, date DESC, created_at DESC, id DESC) WHERE deleted_at IS NULL AND animal_id IS NOT NULL;
