-- Idempotency keys for creates (see src/platform/idempotency.ts). A key is claimed in the same
-- transaction as the records the request creates, so a crash leaves both or neither. A key is
-- scoped to (organization, principal, route); rows older than 24 hours are expired: ignored,
-- replaced when the key is sent again, and pruned.
CREATE TABLE idempotency_keys (
  organization_id text NOT NULL,
  principal text NOT NULL,
  route text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, principal, route, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (organization_id, created_at);
