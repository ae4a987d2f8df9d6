-- Communications (issue 3): templates, message log and outbound queue, idempotent send requests,
-- suppressions, contact preferences, unsubscribe tokens, sender settings, inboxes, conversations.

CREATE TABLE comm_templates (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  key         text NOT NULL,
  name        text,
  channel     text NOT NULL DEFAULT 'email' CHECK (channel IN ('email')),
  subject_template text NOT NULL,
  body_template_blocks jsonb NOT NULL,
  variables   jsonb NOT NULL DEFAULT '[]'::jsonb,
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  status      text NOT NULL DEFAULT 'draft' CHECK (status IN ('active','draft','archived')),
  version     integer NOT NULL DEFAULT 1,
  -- true once the current version has been active: editing its wording then makes a new version
  version_published boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX comm_templates_key ON comm_templates (organization_id, key);
CREATE INDEX comm_templates_list ON comm_templates (organization_id, status, (coalesce(name, key)), id);

CREATE TABLE comm_template_versions (
  organization_id text NOT NULL REFERENCES organizations(id),
  template_id text NOT NULL,
  version     integer NOT NULL,
  subject_template text NOT NULL,
  body_template_blocks jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, template_id, version),
  FOREIGN KEY (organization_id, template_id) REFERENCES comm_templates(organization_id, id)
);

CREATE TABLE comm_inboxes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  display_name text NOT NULL,
  description text NOT NULL DEFAULT '',
  is_default  boolean NOT NULL DEFAULT false,
  is_active   boolean NOT NULL DEFAULT true,
  is_restricted boolean NOT NULL DEFAULT false,
  access_roles text[] NOT NULL DEFAULT '{}',
  access_key_ids text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX comm_inboxes_name ON comm_inboxes (organization_id, name);
CREATE UNIQUE INDEX comm_inboxes_default ON comm_inboxes (organization_id) WHERE is_default;

CREATE TABLE comm_conversations (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  inbox_id    text NOT NULL,
  subject     text NOT NULL DEFAULT '',
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed')),
  assigned_to text,
  contact_address text,
  person_id   text,
  person_confirmed boolean NOT NULL DEFAULT false,
  suggested_person_id text,
  related_entity_type text,
  related_entity_id text,
  last_message_at timestamptz NOT NULL DEFAULT now(),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, inbox_id) REFERENCES comm_inboxes(organization_id, id)
);
CREATE INDEX comm_conversations_list ON comm_conversations (organization_id, last_message_at DESC, id DESC);

-- The message log and the outbound queue in one table: a message is logged (queued) in the same
-- transaction that accepts the request, before any SMTP attempt.
CREATE TABLE comm_messages (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  direction   text NOT NULL CHECK (direction IN ('outbound','inbound')),
  channel     text NOT NULL DEFAULT 'email',
  category    text NOT NULL,
  -- 'sending' is internal (claimed by a worker); the API shows it as queued
  status      text NOT NULL CHECK (status IN ('queued','sending','sent','delivered','failed','bounced','received','suppressed')),
  recipient_address text NOT NULL,
  from_address text,
  person_id   text,
  template_id text,
  template_version integer,
  provider    text,
  provider_message_id text,
  subject     text NOT NULL DEFAULT '',
  body_html   text,
  body_text   text,
  related_entity_type text,
  related_entity_id text,
  payload_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  cc          text[] NOT NULL DEFAULT '{}',
  bcc         text[] NOT NULL DEFAULT '{}',
  headers     jsonb NOT NULL DEFAULT '{}'::jsonb,
  message_id_header text,
  inbox_id    text,
  conversation_id text,
  send_request_id text,
  attempt_token text,
  attempts    integer NOT NULL DEFAULT 0,
  locked_at   timestamptz,
  smtp_started_at timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX comm_messages_list ON comm_messages (organization_id, created_at DESC, id DESC);
CREATE INDEX comm_messages_person ON comm_messages (organization_id, person_id, created_at DESC);
CREATE INDEX comm_messages_msgid ON comm_messages (organization_id, message_id_header);
-- The queue: only rows waiting or in flight (few) are indexed.
CREATE INDEX comm_messages_queue ON comm_messages (organization_id, next_attempt_at) WHERE status IN ('queued','sending');

-- One row per accepted send request: the unique key makes a repeated request a replay, never a second send.
CREATE TABLE comm_send_requests (
  organization_id text NOT NULL REFERENCES organizations(id),
  idempotency_key text NOT NULL,
  id          text NOT NULL,
  request_hash text NOT NULL,
  message_ids text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, idempotency_key)
);

CREATE TABLE comm_suppressions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  address     text NOT NULL,
  reason      text NOT NULL,
  source      text NOT NULL DEFAULT 'api',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX comm_suppressions_address ON comm_suppressions (organization_id, address);

-- Platform-wide suppressions: no organization scope on purpose (hard bounces and abuse reports
-- apply to every organization). Managed only by the CLI and by hard bounces.
CREATE TABLE comm_platform_suppressions (
  address     text PRIMARY KEY,
  reason      text NOT NULL,
  source      text NOT NULL DEFAULT 'cli',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE comm_contact_preferences (
  organization_id text NOT NULL REFERENCES organizations(id),
  person_id   text NOT NULL,
  category    text NOT NULL,
  opted_out   boolean NOT NULL,
  source      text NOT NULL DEFAULT 'api',
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, person_id, category)
);

CREATE TABLE comm_unsubscribe_tokens (
  organization_id text NOT NULL REFERENCES organizations(id),
  token       text NOT NULL,
  message_id  text NOT NULL,
  person_id   text,
  address     text NOT NULL,
  category    text NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, token)
);

CREATE TABLE comm_sender_settings (
  organization_id text NOT NULL REFERENCES organizations(id),
  from_name   text,
  reply_to    text,
  sending_domain text,
  dkim_selector text,
  dkim_private_key text,
  dkim_public_key text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);
