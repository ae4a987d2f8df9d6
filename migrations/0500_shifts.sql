-- Volunteer shifts (issue 6): locations (own lookup), schedules, volunteer roles, qualifications,
-- grants, shift windows, bookings, policies, calendar feed tokens.

-- Locations that schedules are matched to by name (case-insensitively). Kept by this area so the
-- import never depends on another area's schema; managed under /api/shifts/locations.
CREATE TABLE shift_locations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX shift_locations_name ON shift_locations (organization_id, lower(name));

CREATE TABLE shift_schedules (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  event_kind  text,
  location_id text,
  all_day     boolean NOT NULL DEFAULT false,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  start_date  date,
  end_date    date,
  status      text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled','cancelled')),
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  source      text NOT NULL DEFAULT 'api' CHECK (source IN ('api','import','seed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, location_id) REFERENCES shift_locations(organization_id, id),
  CHECK (ends_at > starts_at)
);
CREATE INDEX shift_schedules_time ON shift_schedules (organization_id, starts_at, id);
CREATE INDEX shift_schedules_location ON shift_schedules (organization_id, location_id);

CREATE TABLE shift_qualifications (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  validity_days integer CHECK (validity_days IS NULL OR validity_days > 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX shift_qualifications_name ON shift_qualifications (organization_id, lower(name));

CREATE TABLE shift_roles (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  required_qualification_ids text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX shift_roles_name ON shift_roles (organization_id, lower(name));

CREATE TABLE volunteer_qualifications (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  qualification_id text NOT NULL,
  granted_on  date NOT NULL,
  expires_on  date,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id),
  FOREIGN KEY (organization_id, qualification_id) REFERENCES shift_qualifications(organization_id, id),
  CHECK (expires_on IS NULL OR expires_on >= granted_on)
);
CREATE INDEX volunteer_qualifications_person ON volunteer_qualifications (organization_id, person_id, qualification_id);

CREATE TABLE shift_windows (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  schedule_id text NOT NULL,
  role_id     text,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  capacity    integer NOT NULL CHECK (capacity >= 1),
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, schedule_id) REFERENCES shift_schedules(organization_id, id),
  FOREIGN KEY (organization_id, role_id) REFERENCES shift_roles(organization_id, id),
  CHECK (ends_at > starts_at)
);
CREATE INDEX shift_windows_schedule ON shift_windows (organization_id, schedule_id, starts_at);
CREATE INDEX shift_windows_time ON shift_windows (organization_id, starts_at);

CREATE TABLE shift_bookings (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  window_id   text NOT NULL,
  person_id   text NOT NULL,
  status      text NOT NULL DEFAULT 'booked' CHECK (status IN ('booked','cancelled')),
  attended    boolean,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, window_id) REFERENCES shift_windows(organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
-- A volunteer holds at most one live booking per window (the database refuses a second).
CREATE UNIQUE INDEX shift_bookings_once ON shift_bookings (organization_id, window_id, person_id) WHERE status = 'booked';
CREATE INDEX shift_bookings_person ON shift_bookings (organization_id, person_id, status);

CREATE TABLE shift_policies (
  organization_id text NOT NULL REFERENCES organizations(id),
  min_notice_hours integer NOT NULL DEFAULT 0 CHECK (min_notice_hours >= 0),
  max_hours_per_week integer CHECK (max_hours_per_week IS NULL OR max_hours_per_week > 0),
  cancellation_cutoff_hours integer NOT NULL DEFAULT 0 CHECK (cancellation_cutoff_hours >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);

CREATE TABLE shift_feed_tokens (
  organization_id text NOT NULL REFERENCES organizations(id),
  person_id   text NOT NULL,
  token       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, person_id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE UNIQUE INDEX shift_feed_tokens_token ON shift_feed_tokens (organization_id, token);
