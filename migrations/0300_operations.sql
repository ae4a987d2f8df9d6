-- Animal operations (issue 4): custom field definitions, housing, foster homes, transports.

CREATE TABLE custom_field_definitions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  entity_type text NOT NULL CHECK (entity_type IN ('animal','location_unit','adoption_application')),
  field_key   text NOT NULL CHECK (field_key ~ '^[a-z][a-z0-9_]*$'),
  field_label text NOT NULL,
  field_type  text NOT NULL CHECK (field_type IN ('text','textarea','number','boolean','date','select','multiselect','phone','email','url','country_state')),
  options     jsonb NOT NULL DEFAULT '[]'::jsonb,
  required    boolean NOT NULL DEFAULT false,
  sort_order  integer NOT NULL DEFAULT 0,
  retired_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
-- A retired field keeps its key: values stored under it stay meaningful.
CREATE UNIQUE INDEX custom_field_definitions_key ON custom_field_definitions (organization_id, entity_type, field_key);

CREATE TABLE locations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  type        text NOT NULL,
  address     text,
  notes       text,
  is_active   boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX locations_name ON locations (organization_id, lower(name));

CREATE TABLE housing_units (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  location_id text NOT NULL,
  name        text NOT NULL,
  type        text NOT NULL,
  capacity    integer NOT NULL CHECK (capacity >= 1),
  notes       text,
  is_active   boolean NOT NULL DEFAULT true,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, location_id) REFERENCES locations(organization_id, id)
);
CREATE UNIQUE INDEX housing_units_name ON housing_units (organization_id, location_id, lower(name));

CREATE TABLE foster_homes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active','paused','inactive')),
  capacity    integer NOT NULL CHECK (capacity >= 0),
  species_preferences text[] NOT NULL DEFAULT '{}',
  accepts_medical boolean NOT NULL DEFAULT false,
  accepts_bottle_babies boolean NOT NULL DEFAULT false,
  accepts_behavioral boolean NOT NULL DEFAULT false,
  approved_on date,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE UNIQUE INDEX foster_homes_person ON foster_homes (organization_id, person_id);
CREATE INDEX foster_homes_status ON foster_homes (organization_id, status);

CREATE TABLE foster_assignments (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  foster_home_id text NOT NULL,
  animal_id   text NOT NULL,
  status      text NOT NULL CHECK (status IN ('pending','accepted','declined','active','completed','cancelled')),
  requested_on date NOT NULL,
  started_on  date,
  ended_on    date,
  end_reason  text,
  decline_reason text,
  notes       text,
  previous_location_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, foster_home_id) REFERENCES foster_homes(organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
-- At most one live (pending, accepted or active) assignment per animal, enforced by the database.
CREATE UNIQUE INDEX foster_assignments_one_live ON foster_assignments (organization_id, animal_id) WHERE status IN ('pending','accepted','active');
CREATE INDEX foster_assignments_home ON foster_assignments (organization_id, foster_home_id);

CREATE TABLE transport_runs (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  scheduled_date date NOT NULL,
  origin      text NOT NULL,
  destination text NOT NULL,
  status      text NOT NULL DEFAULT 'planning' CHECK (status IN ('planning','confirmed','in_progress','completed','cancelled')),
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX transport_runs_list ON transport_runs (organization_id, scheduled_date DESC, created_at DESC, id DESC);

CREATE TABLE transport_legs (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  run_id      text NOT NULL,
  sequence    integer NOT NULL,
  from_place  text NOT NULL,
  to_place    text NOT NULL,
  driver_person_id text,
  depart_at   timestamptz,
  arrive_at   timestamptz,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, run_id) REFERENCES transport_runs(organization_id, id)
);
CREATE INDEX transport_legs_run ON transport_legs (organization_id, run_id, sequence);

CREATE TABLE transport_animals (
  organization_id text NOT NULL REFERENCES organizations(id),
  run_id      text NOT NULL,
  animal_id   text NOT NULL,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, run_id, animal_id),
  FOREIGN KEY (organization_id, run_id) REFERENCES transport_runs(organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX transport_animals_animal ON transport_animals (organization_id, animal_id);
