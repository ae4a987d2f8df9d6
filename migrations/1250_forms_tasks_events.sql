-- Forms and their submissions, tasks and task templates, the organization calendar's feed tokens, and events.

CREATE TABLE forms (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  slug        text NOT NULL,
  name        text NOT NULL,
  purpose     text NOT NULL CHECK (purpose IN ('adoption_application','foster_application','volunteer_application','surrender_request','general_contact')),
  description text NOT NULL DEFAULT '',
  status      text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','published','closed')),
  fields      jsonb NOT NULL DEFAULT '[]'::jsonb,
  min_fill_seconds integer NOT NULL DEFAULT 3 CHECK (min_fill_seconds BETWEEN 0 AND 600),
  max_per_address_per_hour integer NOT NULL DEFAULT 5 CHECK (max_per_address_per_hour BETWEEN 1 AND 1000),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX forms_slug ON forms (organization_id, slug);

CREATE TABLE form_submissions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  form_id     text NOT NULL,
  answers     jsonb NOT NULL,
  status      text NOT NULL DEFAULT 'new' CHECK (status IN ('new','converted','dismissed')),
  person_id   text,
  application_id text,
  address_hash text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  converted_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, form_id) REFERENCES forms(organization_id, id)
);
CREATE INDEX form_submissions_form ON form_submissions (organization_id, form_id, created_at DESC);
CREATE INDEX form_submissions_address ON form_submissions (organization_id, form_id, address_hash, created_at);
CREATE INDEX form_submissions_person ON form_submissions (organization_id, person_id);

CREATE TABLE task_templates (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  steps       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX task_templates_name ON task_templates (organization_id, lower(name));

CREATE TABLE tasks (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  title       text NOT NULL,
  notes       text NOT NULL DEFAULT '',
  due_at      timestamptz,
  assignee_role text,
  assignee_member text,
  linked_type text,
  linked_id   text,
  priority    text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low','normal','high','urgent')),
  done_at     timestamptz,
  done_by     text,
  template_id text,
  chain_id    text,
  chain_step  integer,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK ((linked_type IS NULL) = (linked_id IS NULL)),
  CHECK (assignee_role IS NULL OR assignee_member IS NULL)
);
CREATE INDEX tasks_due ON tasks (organization_id, due_at);
CREATE INDEX tasks_linked ON tasks (organization_id, linked_type, linked_id);
CREATE UNIQUE INDEX tasks_chain_step ON tasks (organization_id, chain_id, chain_step) WHERE chain_id IS NOT NULL;

CREATE TABLE org_calendar_feeds (
  organization_id text NOT NULL REFERENCES organizations(id),
  key_id      text NOT NULL,
  token       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key_id)
);
CREATE UNIQUE INDEX org_calendar_feeds_token ON org_calendar_feeds (organization_id, token);

CREATE TABLE events (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  title       text NOT NULL,
  description text NOT NULL DEFAULT '',
  status      text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled','cancelled','completed')),
  published   boolean NOT NULL DEFAULT false,
  published_at timestamptz,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  time_zone   text NOT NULL,
  location    jsonb,
  capacity    integer CHECK (capacity IS NULL OR capacity >= 1),
  campaign_id text,
  animal_ids  text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK (ends_at > starts_at)
);
CREATE INDEX events_starts ON events (organization_id, starts_at);

CREATE TABLE event_attendees (
  organization_id text NOT NULL REFERENCES organizations(id),
  event_id    text NOT NULL,
  person_id   text NOT NULL,
  rsvp        text NOT NULL CHECK (rsvp IN ('invited','going','maybe','declined','attended')),
  guests      integer NOT NULL DEFAULT 0 CHECK (guests BETWEEN 0 AND 20),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, event_id, person_id),
  FOREIGN KEY (organization_id, event_id) REFERENCES events(organization_id, id)
);
CREATE INDEX event_attendees_person ON event_attendees (organization_id, person_id);
