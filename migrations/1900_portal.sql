-- The people's portal: accounts of people (fosters, volunteers, adopters, donors) who sign in at /portal/, their
-- one-time links, sessions, sign-in attempts, the updates fosters post for staff review, and which parts of the
-- portal each role gets.
CREATE TABLE portal_accounts (
  organization_id text NOT NULL,
  id              text NOT NULL,
  person_id       text NOT NULL,
  email           text NOT NULL,
  status          text NOT NULL CHECK (status IN ('invited','active','disabled')),
  password_hash   text,
  invited_by      text,
  last_sign_in_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE INDEX portal_accounts_person ON portal_accounts (organization_id, person_id);
-- One account per email address (a person merge may leave two accounts on one person: both then reach the survivor).
CREATE UNIQUE INDEX portal_accounts_email ON portal_accounts (organization_id, lower(email));

CREATE TABLE portal_tokens (
  organization_id text NOT NULL,
  token_hash      text NOT NULL,
  account_id      text NOT NULL,
  purpose         text NOT NULL CHECK (purpose IN ('invitation','sign_in')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  PRIMARY KEY (organization_id, token_hash),
  FOREIGN KEY (organization_id, account_id) REFERENCES portal_accounts(organization_id, id)
);
CREATE INDEX portal_tokens_account ON portal_tokens (organization_id, account_id, created_at);

CREATE TABLE portal_sessions (
  organization_id text NOT NULL,
  id              text NOT NULL,
  account_id      text NOT NULL,
  token_hash      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_seen_at    timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  user_agent      text,
  address         text,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, account_id) REFERENCES portal_accounts(organization_id, id)
);
CREATE UNIQUE INDEX portal_sessions_token ON portal_sessions (organization_id, token_hash);
CREATE INDEX portal_sessions_account ON portal_sessions (organization_id, account_id);

CREATE TABLE portal_sign_in_attempts (
  organization_id text NOT NULL REFERENCES organizations(id),
  id              bigserial NOT NULL,
  email_key       text NOT NULL,
  address         text NOT NULL,
  at              timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX portal_sign_in_attempts_pair ON portal_sign_in_attempts (organization_id, email_key, address, at);
CREATE INDEX portal_sign_in_attempts_address ON portal_sign_in_attempts (organization_id, address, at);

CREATE TABLE portal_updates (
  organization_id text NOT NULL,
  id              text NOT NULL,
  person_id       text NOT NULL,
  animal_id       text NOT NULL,
  body            text NOT NULL,
  note_id         text NOT NULL,
  photo_ids       text[] NOT NULL DEFAULT '{}',
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','declined')),
  reviewed_by     text,
  reviewed_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX portal_updates_status ON portal_updates (organization_id, status, created_at);
CREATE INDEX portal_updates_person ON portal_updates (organization_id, person_id);

CREATE TABLE portal_settings (
  organization_id text NOT NULL REFERENCES organizations(id),
  foster          boolean NOT NULL DEFAULT true,
  volunteer       boolean NOT NULL DEFAULT true,
  adopter         boolean NOT NULL DEFAULT true,
  donor           boolean NOT NULL DEFAULT true,
  welcome         text NOT NULL DEFAULT '',
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);
