-- Team members who sign in to the staff app, their sessions, one-time tokens (invitations and
-- password resets), two-factor recovery codes, sign-in failures, and which API keys a member made.
CREATE TABLE members (
  organization_id  text NOT NULL REFERENCES organizations(id),
  id               text NOT NULL,
  name             text NOT NULL,
  email            text NOT NULL,
  role_id          text NOT NULL,
  status           text NOT NULL CHECK (status IN ('invited','active','disabled')),
  password_hash    text,
  totp_secret      text,
  totp_pending     text,
  totp_enabled_at  timestamptz,
  failed_sign_ins  integer NOT NULL DEFAULT 0,
  locked_until     timestamptz,
  last_sign_in_at  timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, role_id) REFERENCES roles(organization_id, id)
);
CREATE UNIQUE INDEX members_email ON members (organization_id, lower(email));

CREATE TABLE member_sessions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              text NOT NULL,
  member_id       text NOT NULL,
  token_hash      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_seen_at    timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  user_agent      text,
  address         text,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, member_id) REFERENCES members(organization_id, id)
);
CREATE UNIQUE INDEX member_sessions_token ON member_sessions (organization_id, token_hash);
CREATE INDEX member_sessions_member ON member_sessions (organization_id, member_id);

CREATE TABLE member_tokens (
  organization_id text NOT NULL REFERENCES organizations(id),
  token_hash      text NOT NULL,
  member_id       text NOT NULL,
  purpose         text NOT NULL CHECK (purpose IN ('invitation','password_reset')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  PRIMARY KEY (organization_id, token_hash),
  FOREIGN KEY (organization_id, member_id) REFERENCES members(organization_id, id)
);
CREATE INDEX member_tokens_member ON member_tokens (organization_id, member_id);

CREATE TABLE member_recovery_codes (
  organization_id text NOT NULL REFERENCES organizations(id),
  member_id       text NOT NULL,
  code_hash       text NOT NULL,
  used_at         timestamptz,
  PRIMARY KEY (organization_id, member_id, code_hash),
  FOREIGN KEY (organization_id, member_id) REFERENCES members(organization_id, id)
);

CREATE TABLE member_sign_in_failures (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              bigserial NOT NULL,
  address         text NOT NULL,
  at              timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX member_sign_in_failures_address ON member_sign_in_failures (organization_id, address, at);

CREATE TABLE member_keys (
  organization_id text NOT NULL REFERENCES organizations(id),
  key_id          text NOT NULL,
  member_id       text NOT NULL,
  PRIMARY KEY (organization_id, key_id),
  FOREIGN KEY (organization_id, key_id) REFERENCES api_keys(organization_id, id),
  FOREIGN KEY (organization_id, member_id) REFERENCES members(organization_id, id)
);
