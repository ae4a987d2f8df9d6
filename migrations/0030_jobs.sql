-- The job queue (src/platform/jobs.ts): durable background work for every area (webhook deliveries,
-- scheduled reports, syndication uploads, long imports). A job is claimed with FOR UPDATE SKIP LOCKED,
-- so each runs in one process at a time; `key` makes a job unique per organization and kind (a
-- schedule enqueues each run under a key naming its period, so a run happens once across processes).
CREATE TABLE jobs (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  kind text NOT NULL,
  key text,
  payload jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  lock_token text,
  locked_at timestamptz,
  lease_ms integer NOT NULL DEFAULT 600000,
  progress jsonb,
  result jsonb,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX jobs_key ON jobs (organization_id, kind, key) WHERE key IS NOT NULL;
CREATE INDEX jobs_by_kind ON jobs (organization_id, kind, created_at DESC);
-- The worker claims due jobs of every organization: the one index that does not lead with organization_id.
CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'queued';
CREATE INDEX jobs_running ON jobs (locked_at) WHERE status = 'running';
