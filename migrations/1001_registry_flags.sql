-- Cross-organization registry, part 2: flags about people, their matching keys, reviews, marks,
-- disputes and the append-only history of every flag change.

-- A flag, kept by the organization that raised it (evidence never leaves it).
CREATE TABLE registry_flags (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              text NOT NULL,
  person_id       text NOT NULL,
  category        text NOT NULL CHECK (category IN
                    ('do_not_adopt','animal_cruelty_conviction','returned_animals_repeatedly','fraudulent_payment','other')),
  evidence        text,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active','withdrawn','removed')),
  raised_at       timestamptz NOT NULL DEFAULT now(),
  expires_on      date NOT NULL,
  ended_at        timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX registry_flags_list ON registry_flags (organization_id, raised_at DESC, id DESC);

-- Keyed hashes (HMAC with the server's registry secret) of the flagged person's matching data: normalized
-- email, E.164 phone, name with postal code. Deleted when the flag ends, so it matches nowhere any more.
CREATE TABLE registry_flag_keys (
  organization_id text NOT NULL REFERENCES organizations(id),
  flag_id         text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('email','phone','name_postal_code')),
  hash            text NOT NULL,
  PRIMARY KEY (organization_id, flag_id, kind),
  FOREIGN KEY (organization_id, flag_id) REFERENCES registry_flags (organization_id, id)
);
-- Matching looks a hash up across organizations (the purpose of this table).
CREATE INDEX registry_flag_keys_hash ON registry_flag_keys (hash);

-- Another organization's experience with a flagged person (one per organization and flag).
CREATE TABLE registry_flag_reviews (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              text NOT NULL,
  flag_org_id     text NOT NULL,
  flag_id         text NOT NULL,
  verdict         text NOT NULL CHECK (verdict IN ('confirms','disputes')),
  note            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, flag_org_id, flag_id),
  FOREIGN KEY (flag_org_id, flag_id) REFERENCES registry_flags (organization_id, id)
);
CREATE INDEX registry_flag_reviews_flag ON registry_flag_reviews (organization_id, flag_org_id, flag_id);
-- The raising organization lists the reviews of its flag: by flag, across reviewing organizations.
CREATE INDEX registry_flag_reviews_by_flag ON registry_flag_reviews (flag_org_id, flag_id);

-- A mark: a short label an organization attaches to a flag it can see, for its own eyes only.
CREATE TABLE registry_marks (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              text NOT NULL,
  flag_org_id     text NOT NULL,
  flag_id         text NOT NULL,
  label           text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, flag_org_id, flag_id, label),
  FOREIGN KEY (flag_org_id, flag_id) REFERENCES registry_flags (organization_id, id)
);

-- The flagged person's contest, recorded by the raising organization.
CREATE TABLE registry_disputes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              text NOT NULL,
  flag_id         text NOT NULL,
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open','upheld','withdrawn')),
  note            text NOT NULL,
  resolution_note text,
  opened_at       timestamptz NOT NULL DEFAULT now(),
  resolved_at     timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, flag_id) REFERENCES registry_flags (organization_id, id)
);
CREATE INDEX registry_disputes_flag ON registry_disputes (organization_id, flag_id);

-- Every change to a flag, in order; rows are never changed or removed.
CREATE TABLE registry_flag_history (
  organization_id text NOT NULL REFERENCES organizations(id),
  flag_id         text NOT NULL,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  at              timestamptz NOT NULL DEFAULT now(),
  actor           text,
  action          text NOT NULL,
  detail          jsonb,
  PRIMARY KEY (organization_id, flag_id, seq)
);
CREATE FUNCTION registry_flag_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'registry_flag_history is append-only';
END
$$;
CREATE TRIGGER registry_flag_history_append_only BEFORE UPDATE OR DELETE ON registry_flag_history
  FOR EACH ROW EXECUTE FUNCTION registry_flag_history_append_only();
