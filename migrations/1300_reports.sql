-- Reports (1300): read views over the records reports count, and the submitted Shelter Animals Count months.
-- Reports never write another module's table: they read these views (plain projections the planner inlines,
-- so the owners' indexes still serve them). Changing a column here changes the owning module's interface.

-- stays module: every stay with its animal's species and date of birth, for counts by intake and outcome.
-- Stays of a deleted animal (a record entered by mistake) are left out of every report.
CREATE VIEW report_stays AS
SELECT s.organization_id, s.id, s.animal_id, a.name AS animal_name, a.species, a.date_of_birth, a.location_id,
       s.intake_at, s.intake_type, s.intake_subtype_id, s.age_weeks, s.age_estimated, s.condition, s.adoption_return,
       s.outcome_at, s.outcome_type, s.outcome_subtype_id
  FROM animal_stays s
  JOIN animals a ON a.organization_id = s.organization_id AND a.id = s.animal_id
 WHERE a.deleted_at IS NULL;

-- stays module: the organization's intake and outcome subtypes (names for the summaries).
CREATE VIEW report_stay_subtypes AS
SELECT organization_id, id, kind, name, category FROM stay_subtypes;

-- stays module: holds, for the point-in-time care state (a hold live at a moment puts the animal on hold).
CREATE VIEW report_holds AS
SELECT organization_id, id, animal_id, starts_at, ends_at, released_at FROM animal_holds;

-- operations module: the days an animal spent in a foster home (accepted offers that started).
CREATE VIEW report_foster_spans AS
SELECT organization_id, id, foster_home_id, animal_id, started_on, ended_on
  FROM foster_assignments
 WHERE status IN ('active', 'completed') AND started_on IS NOT NULL;

-- operations module: locations' names.
CREATE VIEW report_locations AS
SELECT organization_id, id, name, type FROM locations;

-- medical module: open and completed due items, and the records given (vaccines with their lot numbers).
CREATE VIEW report_medical_due AS
SELECT organization_id, id, animal_id, item_id, kind, species, due_on, completed_at FROM medical_due;
CREATE VIEW report_medical_records AS
SELECT organization_id, id, animal_id, kind, name, product, manufacturer, lot, expires_on, given_at, given_by FROM medical_records;

-- operations module: foster homes (the person, status and capacity).
CREATE VIEW report_foster_homes AS
SELECT organization_id, id, person_id, status, capacity FROM foster_homes;

-- adoptions module: adoptions with their fee, and the contracts' signing.
CREATE VIEW report_adoptions AS
SELECT organization_id, id, animal_id, person_id, status, started_at, adopted_at, returned_at, fee_minor, currency, fee_rule,
       contract_id
  FROM adoptions;
CREATE VIEW report_contracts AS
SELECT organization_id, id, title, signed_at FROM signed_contracts;

-- fundraising module: campaign names.
CREATE VIEW report_campaigns AS
SELECT organization_id, id, name FROM fundraising_campaigns;

-- shifts module: each booking with its window's times and role (hours served), and role names.
CREATE VIEW report_shift_bookings AS
SELECT b.organization_id, b.id, b.person_id, b.status, b.attended, w.role_id, w.starts_at, w.ends_at
  FROM shift_bookings b JOIN shift_windows w ON w.organization_id = b.organization_id AND w.id = b.window_id;
CREATE VIEW report_shift_roles AS
SELECT organization_id, id, name FROM shift_roles;

-- communications module: outbound messages' category and delivery status.
CREATE VIEW report_messages AS
SELECT organization_id, id, direction, category, status, created_at FROM comm_messages;

-- A month's matrix as submitted to Shelter Animals Count: kept as it was, so later corrections to the
-- records show as differences against it instead of changing a submitted figure.
CREATE TABLE report_sac_submissions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id            text NOT NULL,
  month         text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  species_group text NOT NULL,
  matrix        jsonb NOT NULL,
  notes         text,
  submitted_by  text,
  submitted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX report_sac_submissions_month ON report_sac_submissions (organization_id, month, species_group);

-- A report an organization asks for by email every month: the previous month's report, in a format, to some
-- addresses, on a day of the month. Each run is a job keyed by schedule and month (once across processes).
CREATE TABLE report_schedules (
  organization_id text NOT NULL REFERENCES organizations(id),
  id            text NOT NULL,
  name          text NOT NULL,
  report        text NOT NULL,
  species_group text,
  format        text NOT NULL CHECK (format IN ('csv', 'xlsx', 'pdf')),
  recipients    text[] NOT NULL CHECK (cardinality(recipients) BETWEEN 1 AND 20),
  day_of_month  integer NOT NULL CHECK (day_of_month BETWEEN 1 AND 28),
  active        boolean NOT NULL DEFAULT true,
  created_by    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX report_schedules_list ON report_schedules (organization_id, created_at DESC, id DESC);

-- The months a schedule has sent: the email and this row commit together, so a run retried after a crash sends nothing twice.
CREATE TABLE report_schedule_runs (
  organization_id text NOT NULL REFERENCES organizations(id),
  schedule_id   text NOT NULL,
  period        text NOT NULL,
  message_ids   text[] NOT NULL,
  sent_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, schedule_id, period),
  FOREIGN KEY (organization_id, schedule_id) REFERENCES report_schedules(organization_id, id) ON DELETE CASCADE
);
