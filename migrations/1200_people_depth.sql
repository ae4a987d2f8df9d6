-- People in depth: contacts, addresses, notes, flags, duplicate dismissals, merges (and their undo).
-- pg_trgm is already created by 0020 (the people search index); repeated here because the duplicate
-- finder's similarity() needs it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The duplicate finder's similar-name join: a trigram index over the lower-cased full name (the same
-- expression as the query). GIN cannot lead with organization_id without btree_gin; queries filter on it.
CREATE INDEX people_name_trgm ON people USING gin (lower(trim(first_name || ' ' || last_name)) gin_trgm_ops) WHERE deleted_at IS NULL;
-- Equal emails of contacts and primary emails are found by hash joins; equal names + postal codes too.

-- A merged person is soft-deleted (deleted_at) and points to the survivor.
ALTER TABLE people ADD COLUMN merged_into text;

CREATE TABLE person_contacts (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('email','phone','other')),
  value       text NOT NULL,
  label       text NOT NULL DEFAULT '',
  preferred   boolean NOT NULL DEFAULT false,
  opted_out   boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE INDEX person_contacts_person ON person_contacts (organization_id, person_id);
CREATE INDEX person_contacts_value ON person_contacts (organization_id, kind, lower(value));

CREATE TABLE person_addresses (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('home','mailing','work')),
  line1       text NOT NULL,
  line2       text,
  city        text NOT NULL,
  state       text,
  postal_code text,
  country     text NOT NULL,
  valid_from  date,
  valid_until date,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id),
  CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until >= valid_from)
);
CREATE INDEX person_addresses_person ON person_addresses (organization_id, person_id);

CREATE TABLE person_notes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('general','call','visit','email','meeting','warning')),
  body        text NOT NULL,
  author      text,
  pinned      boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE INDEX person_notes_person ON person_notes (organization_id, person_id, pinned DESC, created_at DESC);

CREATE TABLE person_flags (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  flag        text NOT NULL CHECK (flag IN ('banned','do_not_adopt','deceased','dangerous')),
  reason      text NOT NULL,
  created_by  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  cleared_at  timestamptz,
  cleared_by  text,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
-- At most one standing flag of a kind per person.
CREATE UNIQUE INDEX person_flags_standing ON person_flags (organization_id, person_id, flag) WHERE cleared_at IS NULL;

-- A pair staff said are not the same person: never listed as a likely duplicate again. person_a < person_b.
CREATE TABLE person_duplicate_dismissals (
  organization_id text NOT NULL REFERENCES organizations(id),
  person_a    text NOT NULL,
  person_b    text NOT NULL,
  dismissed_by text,
  dismissed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, person_a, person_b),
  CHECK (person_a < person_b)
);

-- One merge: which rows moved per table and column (their keys after the move), what the survivor
-- gained (roles, tags, custom fields, contacts made from the merged person's primary email/phone),
-- and the merged person's own values, so an undo restores exactly what moved.
CREATE TABLE person_merges (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  merged_person_id text NOT NULL,
  survivor_person_id text NOT NULL,
  moved       jsonb NOT NULL,
  kept        jsonb NOT NULL,
  gained      jsonb NOT NULL,
  merged_by   text,
  merged_at   timestamptz NOT NULL DEFAULT now(),
  undone_at   timestamptz,
  undone_by   text,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX person_merges_merged ON person_merges (organization_id, merged_person_id, merged_at DESC);
CREATE INDEX person_merges_survivor ON person_merges (organization_id, survivor_person_id, merged_at DESC);

-- Custom fields for people: definitions of entity type `person`, values in people.custom_fields.
ALTER TABLE custom_field_definitions DROP CONSTRAINT custom_field_definitions_entity_type_check;
ALTER TABLE custom_field_definitions ADD CONSTRAINT custom_field_definitions_entity_type_check
  CHECK (entity_type IN ('animal','location_unit','adoption_application','person'));
