-- Stays (0600): an animal's periods in the organization's care. A stay is one intake and at most one
-- outcome; the animal keeps its id across stays. Intake and outcome types are the Shelter Animals Count
-- categories; each organization's subtypes refine them and map to exactly one category. Holds are rows
-- of their own beside the animal's status.

CREATE TABLE stay_subtypes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('intake','outcome')),
  name        text NOT NULL,
  category    text NOT NULL,
  retired     boolean NOT NULL DEFAULT false,
  sort_order  integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK (
    (kind = 'intake' AND category IN ('stray','relinquished','owner_intended_euthanasia','transfer_in','other'))
    OR (kind = 'outcome' AND category IN ('adoption','return_to_owner','transfer_out','return_to_field','other_live',
      'died_in_care','lost_in_care','shelter_euthanasia','owner_intended_euthanasia'))
  )
);
CREATE UNIQUE INDEX stay_subtypes_name ON stay_subtypes (organization_id, kind, lower(name));

-- Which status an intake or outcome of a category gives the animal (null: the status is left as it is).
CREATE TABLE stay_status_map (
  organization_id text NOT NULL REFERENCES organizations(id),
  kind        text NOT NULL CHECK (kind IN ('intake','outcome')),
  category    text NOT NULL,
  status_id   text,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, kind, category)
);

-- Organizations whose default subtypes and status mapping have been written (once; later edits are theirs).
CREATE TABLE stay_defaults_seeded (
  organization_id text NOT NULL REFERENCES organizations(id),
  seeded_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);

CREATE TABLE animal_stays (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  animal_id   text NOT NULL,
  intake_at   timestamptz NOT NULL,
  intake_type text NOT NULL CHECK (intake_type IN ('stray','relinquished','owner_intended_euthanasia','transfer_in','other')),
  intake_subtype_id text,
  source_person_id text,
  source_organization text,
  found_at    text,
  condition   text NOT NULL DEFAULT 'unknown' CHECK (condition IN ('healthy','treatable','unhealthy_untreatable','unknown')),
  age_weeks   integer CHECK (age_weeks >= 0),
  age_estimated boolean NOT NULL DEFAULT false,
  adoption_return boolean NOT NULL DEFAULT false,
  intake_notes text,
  intake_by   text,
  outcome_at  timestamptz,
  outcome_type text CHECK (outcome_type IN ('adoption','return_to_owner','transfer_out','return_to_field','other_live',
    'died_in_care','lost_in_care','shelter_euthanasia','owner_intended_euthanasia')),
  outcome_subtype_id text,
  destination_person_id text,
  destination_organization text,
  outcome_reason text,
  outcome_notes text,
  outcome_by  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, intake_subtype_id) REFERENCES stay_subtypes(organization_id, id),
  FOREIGN KEY (organization_id, outcome_subtype_id) REFERENCES stay_subtypes(organization_id, id),
  CHECK ((outcome_at IS NULL) = (outcome_type IS NULL)),
  CHECK (outcome_at IS NULL OR outcome_at >= intake_at),
  CHECK (NOT adoption_return OR intake_type = 'relinquished'),
  CHECK (source_person_id IS NULL OR source_organization IS NULL),
  CHECK (destination_person_id IS NULL OR destination_organization IS NULL)
);
-- At most one open stay per animal.
CREATE UNIQUE INDEX animal_stays_open ON animal_stays (organization_id, animal_id) WHERE outcome_at IS NULL;
CREATE INDEX animal_stays_animal ON animal_stays (organization_id, animal_id, intake_at DESC);
CREATE INDEX animal_stays_intakes ON animal_stays (organization_id, intake_at);
CREATE INDEX animal_stays_outcomes ON animal_stays (organization_id, outcome_at) WHERE outcome_at IS NOT NULL;

CREATE TABLE animal_holds (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  animal_id   text NOT NULL,
  reason      text NOT NULL CHECK (reason IN ('stray_hold','bite_quarantine','medical','behaviour','legal_evidence','not_for_adoption','other')),
  starts_at   timestamptz NOT NULL,
  -- `until` as sent: a date-time (until_at) or a date (until_date); ends_at is the moment it ends.
  until_at    timestamptz,
  until_date  date,
  ends_at     timestamptz,
  placed_by   text,
  released_at timestamptz,
  released_by text,
  release_notes text,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  CHECK (until_at IS NULL OR until_date IS NULL),
  CHECK ((ends_at IS NULL) = (until_at IS NULL AND until_date IS NULL)),
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX animal_holds_animal ON animal_holds (organization_id, animal_id, starts_at DESC);
CREATE INDEX animal_holds_unreleased ON animal_holds (organization_id, ends_at) WHERE released_at IS NULL;

-- stays module: the holds in force now, for other modules' lists (adoptions, the public listing).
CREATE VIEW animal_live_holds AS
SELECT organization_id, id, animal_id, reason, starts_at, ends_at
  FROM animal_holds
 WHERE released_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now());

-- Every animal already on file gets a stay from its intake date (the start of that day in the
-- organization's time zone), type other, condition unknown: nothing is lost, nothing is guessed.
INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, intake_by, created_at, updated_at)
SELECT a.organization_id, 'sty_' || substr(md5(a.organization_id || ':' || a.id || ':stay'), 1, 20), a.id,
       (a.intake_date::timestamp AT TIME ZONE o.time_zone), 'other', 'unknown', 'migration', now(), now()
  FROM animals a JOIN organizations o ON o.id = a.organization_id;
