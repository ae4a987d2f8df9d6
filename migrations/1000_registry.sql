-- Cross-organization registry, part 1: published microchip entries and the search log.
-- The lookup reads only registry_chips, as the database role ark_registry_reader, which may read
-- nothing else (no grant on any tenant table).

-- An organization's registry settings (its own; never read by the lookup).
CREATE TABLE registry_settings (
  organization_id text NOT NULL REFERENCES organizations(id),
  publish_chips   boolean NOT NULL DEFAULT true,
  -- The organization profile last copied into registry_chips (a change is copied on the next publish).
  profile         jsonb,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);

-- Animals whose chips the organization does not publish ("do not publish this chip").
CREATE TABLE registry_animal_optouts (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id       text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_id)
);

-- Published copies: one row per (organization, animal, chip number). Copied from the animal and the
-- organization profile when a chip is recorded or the animal changes; nothing here is joined live.
CREATE TABLE registry_chips (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id       text NOT NULL,
  number          text NOT NULL,
  org_name        text NOT NULL,
  org_email       text,
  org_phone       text,
  org_website     text,
  species         text NOT NULL,
  status_category text NOT NULL CHECK (status_category IN ('in_care','adopted','transferred','other')),
  last_seen       date NOT NULL,
  published_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_id, number)
);
-- The lookup is by number across organizations (the one purpose of this table).
CREATE INDEX registry_chips_number ON registry_chips (number);

-- Every lookup, keyed or not, for abuse review: no organization for a keyless search.
CREATE TABLE registry_searches (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  searched_at     timestamptz NOT NULL DEFAULT now(),
  address_hash    text NOT NULL,
  number          text NOT NULL,
  answered        boolean NOT NULL,
  organization_id text REFERENCES organizations(id)
);
CREATE INDEX registry_searches_time ON registry_searches (searched_at);

-- The lookup's role: cluster-wide, so created once (another database may have made it already,
-- possibly at the same moment) and granted to whoever runs the migrations so it can SET ROLE.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ark_registry_reader') THEN
    BEGIN
      CREATE ROLE ark_registry_reader NOLOGIN NOINHERIT;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
  IF NOT pg_has_role(current_user, 'ark_registry_reader', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT ark_registry_reader TO %I', current_user);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
END
$$;
DO $$ BEGIN EXECUTE format('GRANT USAGE ON SCHEMA %I TO ark_registry_reader', current_schema()); END $$;
-- Only the published columns: not even the organization's or the animal's internal id.
GRANT SELECT (number, org_name, org_email, org_phone, org_website, species, status_category, last_seen)
  ON registry_chips TO ark_registry_reader;
