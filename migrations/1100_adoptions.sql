-- Adoption pipeline (issue 13): application stages, applications, fee schedules, adoptions, contract templates,
-- signed contracts, the donations linked to an adoption, and cage card templates.

CREATE TABLE adoption_stages (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('open', 'approved', 'closed')),
  sort_order  integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX adoption_stages_name ON adoption_stages (organization_id, lower(name));

-- Written once per organization, the first time it uses the area: later edits of the stages are its own.
CREATE TABLE adoption_defaults_seeded (
  organization_id text NOT NULL REFERENCES organizations(id) PRIMARY KEY
);

CREATE TABLE adoption_applications (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  person_id   text NOT NULL,
  stage_id    text NOT NULL,
  assigned_to text,
  notes       text,
  answers     jsonb NOT NULL DEFAULT '{}'::jsonb,
  decision    text CHECK (decision IN ('approved', 'denied', 'withdrawn', 'adopted', 'closed')),
  decision_reason text,
  decided_at  timestamptz,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, stage_id) REFERENCES adoption_stages(organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id)
);
CREATE INDEX adoption_applications_list ON adoption_applications (organization_id, submitted_at DESC, id DESC);
CREATE INDEX adoption_applications_person ON adoption_applications (organization_id, person_id);

CREATE TABLE adoption_application_animals (
  organization_id text NOT NULL REFERENCES organizations(id),
  application_id text NOT NULL,
  animal_id   text NOT NULL,
  position    integer NOT NULL,
  PRIMARY KEY (organization_id, application_id, animal_id),
  FOREIGN KEY (organization_id, application_id) REFERENCES adoption_applications(organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX adoption_application_animals_animal ON adoption_application_animals (organization_id, animal_id);

CREATE TABLE adoption_fee_schedules (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  active      boolean NOT NULL DEFAULT true,
  rules       jsonb NOT NULL DEFAULT '[]'::jsonb,
  promotions  jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
-- One schedule in force per organization.
CREATE UNIQUE INDEX adoption_fee_schedules_active ON adoption_fee_schedules (organization_id) WHERE active;

CREATE TABLE contract_templates (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  version     integer NOT NULL DEFAULT 1,
  title       text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE TABLE contract_template_versions (
  organization_id text NOT NULL REFERENCES organizations(id),
  template_id text NOT NULL,
  version     integer NOT NULL,
  title       text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, template_id, version),
  FOREIGN KEY (organization_id, template_id) REFERENCES contract_templates(organization_id, id)
);

CREATE TABLE signed_contracts (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  application_id text NOT NULL,
  person_id   text NOT NULL,
  animal_ids  text[] NOT NULL,
  template_id text NOT NULL,
  template_version integer NOT NULL,
  title       text NOT NULL,
  document    text NOT NULL,
  document_sha256 text NOT NULL,
  fee_minor   bigint NOT NULL,
  currency    text NOT NULL,
  token_sha256 text NOT NULL,
  token_expires_at timestamptz NOT NULL,
  token_used_at timestamptz,
  sent_to     text,
  message_id  text,
  signed_name text,
  signed_at   timestamptz,
  signed_ip   text,
  signed_user_agent text,
  created_by  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, application_id) REFERENCES adoption_applications(organization_id, id)
);
CREATE UNIQUE INDEX signed_contracts_token ON signed_contracts (organization_id, token_sha256);
CREATE INDEX signed_contracts_application ON signed_contracts (organization_id, application_id);
CREATE INDEX signed_contracts_list ON signed_contracts (organization_id, created_at DESC, id DESC);

-- A signed contract never changes and is never deleted (a correction is a new contract).
CREATE FUNCTION signed_contracts_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.signed_at IS NOT NULL THEN
    RAISE EXCEPTION 'a signed contract is immutable' USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER signed_contracts_immutable BEFORE UPDATE OR DELETE ON signed_contracts
  FOR EACH ROW EXECUTE FUNCTION signed_contracts_immutable();

CREATE TABLE adoptions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  application_id text NOT NULL,
  animal_id   text NOT NULL,
  person_id   text NOT NULL,
  stay_id     text NOT NULL,
  status      text NOT NULL CHECK (status IN ('trial', 'adopted', 'returned', 'trial_ended')),
  trial_ends_on date,
  adopted_at  timestamptz,
  started_at  timestamptz NOT NULL,
  fee_minor   bigint NOT NULL CHECK (fee_minor >= 0),
  currency    text NOT NULL,
  fee_schedule_id text,
  fee_rule    text,
  fee_promotion text,
  fee_override_reason text,
  flag_override_reason text,
  contract_id text,
  returned_at timestamptz,
  return_reason text,
  return_stay_id text,
  within_return_window boolean,
  created_by  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, application_id) REFERENCES adoption_applications(organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
-- One adoption (or trial) per stay; a trial that ended without adoption frees the stay.
CREATE UNIQUE INDEX adoptions_one_per_stay ON adoptions (organization_id, stay_id) WHERE status <> 'trial_ended';
CREATE INDEX adoptions_list ON adoptions (organization_id, started_at DESC, id DESC);
CREATE INDEX adoptions_animal ON adoptions (organization_id, animal_id);

CREATE TABLE adoption_donations (
  organization_id text NOT NULL REFERENCES organizations(id),
  adoption_id text NOT NULL,
  donation_id text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, adoption_id, donation_id),
  FOREIGN KEY (organization_id, adoption_id) REFERENCES adoptions(organization_id, id)
);
CREATE UNIQUE INDEX adoption_donations_once ON adoption_donations (organization_id, donation_id);

CREATE TABLE cage_card_templates (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  size        text NOT NULL CHECK (size IN ('a4', 'letter', 'index_card')),
  fields      text[] NOT NULL,
  show_qr     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);

-- The organization's return window in days per species ('*' for any other), for adoption returns.
CREATE TABLE adoption_settings (
  organization_id text NOT NULL REFERENCES organizations(id) PRIMARY KEY,
  return_window_days jsonb NOT NULL DEFAULT '{"dog": 30, "cat": 7, "*": 14}'::jsonb,
  closed_template_id text,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
