-- Kernel: organizations, roles, API keys, animal statuses, animals, people, donations.
-- Every table carries organization_id and every primary key and index starts with it,
-- so the schema distributes by organization without change.

CREATE TABLE organizations (
  id          text PRIMARY KEY,
  slug        text NOT NULL UNIQUE,
  name        text NOT NULL,
  email       text,
  phone       text,
  website     text,
  currency    text NOT NULL DEFAULT 'USD',
  time_zone   text NOT NULL DEFAULT 'America/New_York',
  country     text NOT NULL DEFAULT 'US',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE roles (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  grants      jsonb NOT NULL DEFAULT '{}'::jsonb,
  built_in    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX roles_name ON roles (organization_id, name);

CREATE TABLE api_keys (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  role_id     text NOT NULL,
  label       text,
  key_hash    text NOT NULL,
  key_start   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  last_used_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, role_id) REFERENCES roles(organization_id, id)
);
CREATE UNIQUE INDEX api_keys_hash ON api_keys (organization_id, key_hash);

CREATE TABLE animal_statuses (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  care_state  text NOT NULL CHECK (care_state IN ('in_care','on_hold','completed','not_in_care')),
  sort_order  integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX animal_statuses_name ON animal_statuses (organization_id, name);

CREATE TABLE animals (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  public_name text NOT NULL,
  species     text NOT NULL,
  breed       text,
  status_id   text NOT NULL,
  location_id text,
  intake_date date NOT NULL,
  date_of_birth date,
  sex         text NOT NULL DEFAULT 'unknown' CHECK (sex IN ('male','female','unknown')),
  weight      numeric(8,2),
  microchip_number text,
  is_public   boolean NOT NULL DEFAULT false,
  notes       text,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, status_id) REFERENCES animal_statuses(organization_id, id)
);
CREATE INDEX animals_list ON animals (organization_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX animals_species_status ON animals (organization_id, lower(species), status_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX animals_status ON animals (organization_id, status_id) WHERE deleted_at IS NULL;
CREATE INDEX animals_location ON animals (organization_id, location_id) WHERE deleted_at IS NULL;
CREATE INDEX animals_microchip ON animals (organization_id, microchip_number) WHERE deleted_at IS NULL;

CREATE TABLE people (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  first_name  text NOT NULL,
  last_name   text NOT NULL,
  email       text NOT NULL,
  phone       text,
  address     jsonb,
  roles       text[] NOT NULL DEFAULT '{}',
  tags        text[] NOT NULL DEFAULT '{}',
  notes       text,
  time_zone   text NOT NULL,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX people_email ON people (organization_id, lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX people_list ON people (organization_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX people_roles ON people USING gin (roles);
CREATE INDEX people_tags ON people USING gin (tags);

CREATE TABLE donations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  donor_id    text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency    text NOT NULL,
  type        text NOT NULL CHECK (type IN ('one-off','recurring','post-adoption')),
  campaign_id text,
  animal_id   text,
  payment_method text NOT NULL CHECK (payment_method IN ('card','cash','check','bank_transfer','other')),
  gateway     text,
  gateway_transaction_id text,
  date        date NOT NULL,
  notes       text,
  source      text NOT NULL DEFAULT 'api',
  source_id   text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, donor_id) REFERENCES people(organization_id, id)
);
CREATE INDEX donations_list ON donations (organization_id, date DESC, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX donations_donor ON donations (organization_id, donor_id) WHERE deleted_at IS NULL;
CREATE INDEX donations_campaign ON donations (organization_id, campaign_id) WHERE deleted_at IS NULL;

-- Who did what: one row per change, written in the same transaction as the change.
CREATE TABLE audit_log (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          bigserial,
  actor       text,
  action      text NOT NULL,
  entity_type text NOT NULL,
  entity_id   text NOT NULL,
  detail      jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX audit_log_entity ON audit_log (organization_id, entity_type, entity_id);
