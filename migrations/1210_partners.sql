-- Outside organizations (partners): other rescues, shelters, vets, transport groups, suppliers; their
-- locations and the people affiliated with them.
CREATE TABLE partners (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('rescue','shelter','vet','transport','supplier','other')),
  name        text NOT NULL,
  contact_name text NOT NULL DEFAULT '',
  email       text,
  phone       text,
  website     text,
  notes       text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX partners_name ON partners (organization_id, lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE partner_locations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  partner_id  text NOT NULL,
  name        text NOT NULL DEFAULT '',
  line1       text NOT NULL,
  line2       text,
  city        text NOT NULL,
  state       text,
  postal_code text,
  country     text NOT NULL,
  phone       text,
  hours       text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, partner_id) REFERENCES partners(organization_id, id)
);
CREATE INDEX partner_locations_partner ON partner_locations (organization_id, partner_id);

CREATE TABLE partner_affiliations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  partner_id  text NOT NULL,
  person_id   text NOT NULL,
  role        text NOT NULL,
  valid_from  date,
  valid_until date,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, partner_id) REFERENCES partners(organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id),
  CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until >= valid_from)
);
CREATE INDEX partner_affiliations_partner ON partner_affiliations (organization_id, partner_id);
CREATE INDEX partner_affiliations_person ON partner_affiliations (organization_id, person_id);
