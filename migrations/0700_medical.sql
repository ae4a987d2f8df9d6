-- Medical records of animals (issue 12): the catalogue, protocols, due items, records, calendar feeds.

-- What the organization gives or does: vaccines, tests, treatments, procedures.
CREATE TABLE medical_items (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('vaccine','test','treatment','procedure')),
  name        text NOT NULL,
  species     text[] NOT NULL DEFAULT '{}',
  default_product text,
  default_manufacturer text,
  alters      boolean NOT NULL DEFAULT false CHECK (NOT alters OR kind = 'procedure'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX medical_items_name ON medical_items (organization_id, lower(name));

-- A schedule of doses for animals of one species, from a start age, every interval_days, until a number
-- of doses or a stop age.
CREATE TABLE medical_protocols (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  species     text NOT NULL,
  item_id     text NOT NULL,
  start_age_weeks integer NOT NULL DEFAULT 0 CHECK (start_age_weeks >= 0),
  interval_days integer CHECK (interval_days >= 1),
  doses       integer CHECK (doses >= 1),
  stop_age_weeks integer CHECK (stop_age_weeks > start_age_weeks),
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, item_id) REFERENCES medical_items(organization_id, id),
  CHECK (doses IS NOT NULL OR stop_age_weeks IS NOT NULL),
  CHECK (interval_days IS NOT NULL OR doses = 1)
);
CREATE UNIQUE INDEX medical_protocols_name ON medical_protocols (organization_id, lower(name));
CREATE INDEX medical_protocols_species ON medical_protocols (organization_id, species) WHERE active;

CREATE TABLE medical_records (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  animal_id   text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('vaccine','test','treatment','procedure')),
  item_id     text,
  name        text NOT NULL,
  product     text,
  manufacturer text,
  lot         text,
  expires_on  date,
  dose        text,
  route       text,
  given_by    text,
  given_at    timestamptz NOT NULL,
  next_due_on date,
  result      text CHECK (result IN ('negative','positive','unknown')),
  rabies_tag  text,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, item_id) REFERENCES medical_items(organization_id, id)
);
CREATE INDEX medical_records_animal ON medical_records (organization_id, animal_id, given_at DESC, id DESC);
CREATE INDEX medical_records_item ON medical_records (organization_id, item_id);

-- Something due for an animal on a date (a protocol's dose, or a record's next due). Open while
-- completed_at is null; completing it writes record_id. from_record_id: the record whose completion or
-- next due made it. kind and species (lower case) are copied from the item and the animal, which never
-- change them, so the due list filters on its own index.
CREATE TABLE medical_due (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  animal_id   text NOT NULL,
  item_id     text NOT NULL,
  kind        text NOT NULL,
  species     text NOT NULL,
  protocol_id text,
  dose_number integer CHECK (dose_number >= 1),
  due_on      date NOT NULL,
  completed_at timestamptz,
  record_id   text,
  from_record_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, item_id) REFERENCES medical_items(organization_id, id),
  FOREIGN KEY (organization_id, protocol_id) REFERENCES medical_protocols(organization_id, id)
);
-- A protocol's dose exists once per animal: applying protocols twice, or two completions at once, add nothing.
CREATE UNIQUE INDEX medical_due_dose ON medical_due (organization_id, animal_id, protocol_id, dose_number) WHERE protocol_id IS NOT NULL;
-- The organization's "due or overdue" list walks open items by date.
CREATE INDEX medical_due_open ON medical_due (organization_id, due_on, id) WHERE completed_at IS NULL;
CREATE INDEX medical_due_open_kind ON medical_due (organization_id, kind, due_on, id) WHERE completed_at IS NULL;
CREATE INDEX medical_due_open_species ON medical_due (organization_id, species, due_on, id) WHERE completed_at IS NULL;
CREATE INDEX medical_due_animal ON medical_due (organization_id, animal_id, due_on);
CREATE INDEX medical_due_from ON medical_due (organization_id, from_record_id) WHERE from_record_id IS NOT NULL;
CREATE INDEX medical_due_record ON medical_due (organization_id, record_id) WHERE record_id IS NOT NULL;

-- Secret addresses of the animal calendar's iCalendar feeds: one for the organization (animal_id '')
-- and one per animal asked for.
CREATE TABLE animal_calendar_feeds (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id   text NOT NULL DEFAULT '',
  token       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_id)
);
CREATE UNIQUE INDEX animal_calendar_feeds_token ON animal_calendar_feeds (organization_id, token);
