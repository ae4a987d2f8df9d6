-- Integrations: the change outbox (written by src/platform/changes.ts inside the writer's transaction),
-- webhook endpoints, their deliveries and attempts, and saved import mappings.

-- The outbox. `pos` orders changes inside one transaction; `commit_seq` is assigned once per transaction
-- at commit time (a deferred constraint trigger, under one advisory lock), so commit_seq follows commit
-- order: a transaction that commits later never gets a smaller number than one already visible.
CREATE SEQUENCE ark_change_commit_seq;
CREATE TABLE ark_changes (
  organization_id text NOT NULL REFERENCES organizations(id),
  pos bigserial NOT NULL,
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  commit_seq bigint,
  event text NOT NULL,
  area text NOT NULL,
  entity_type text NOT NULL,
  entity_id text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  actor text,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, pos)
);
CREATE INDEX ark_changes_feed ON ark_changes (organization_id, commit_seq, pos);
-- Only rows of transactions still committing are in this index (a handful at any time); the commit
-- trigger finds its own rows by transaction id, across organizations, so it does not start with one.
CREATE INDEX ark_changes_committing ON ark_changes (txid) WHERE commit_seq IS NULL;

CREATE FUNCTION ark_changes_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  done text := current_setting('ark.change_commit_seq', true);
BEGIN
  IF done IS NOT NULL AND done <> '' THEN
    RETURN NULL;
  END IF;
  -- Held until this transaction has committed: the next committer numbers after us.
  PERFORM pg_advisory_xact_lock(7406221400);
  PERFORM set_config('ark.change_commit_seq', nextval('ark_change_commit_seq')::text, true);
  UPDATE ark_changes SET commit_seq = current_setting('ark.change_commit_seq')::bigint
   WHERE txid = pg_current_xact_id() AND commit_seq IS NULL;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ark_changes_commit AFTER INSERT ON ark_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ark_changes_commit();

CREATE TABLE webhook_endpoints (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  paused_reason text,
  paused_at timestamptz,
  failure_run integer NOT NULL DEFAULT 0,
  -- Changes committed before the endpoint existed are not sent to it.
  start_seq bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);

-- How far the fan-out (changes → deliveries) has read, per organization.
CREATE TABLE webhook_cursors (
  organization_id text NOT NULL REFERENCES organizations(id),
  commit_seq bigint NOT NULL DEFAULT 0,
  pos bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id)
);

CREATE TABLE webhook_deliveries (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  endpoint_id text NOT NULL,
  commit_seq bigint NOT NULL,
  change_pos bigint NOT NULL,
  event text NOT NULL,
  entity_id text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  attempt_token text,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, endpoint_id, commit_seq, change_pos),
  FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (organization_id, next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (organization_id, endpoint_id, entity_id, commit_seq, change_pos)
  WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (organization_id, endpoint_id, created_at DESC);

CREATE TABLE webhook_attempts (
  organization_id text NOT NULL REFERENCES organizations(id),
  id bigserial NOT NULL,
  delivery_id text NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  success boolean NOT NULL,
  error text,
  response_ms integer,
  response_start text,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, delivery_id) REFERENCES webhook_deliveries (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (organization_id, delivery_id, id);

CREATE TABLE import_mappings (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  target text NOT NULL CHECK (target IN ('animals', 'people')),
  name text NOT NULL,
  columns jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, target, name)
);
