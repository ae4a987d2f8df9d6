-- Moving to Ark (src/modules/moving): every record brought over from another system keeps the id it had there.
-- One row per (source, record kind, source id): the Ark record it became and a fingerprint of the source record as
-- last written, so a second run of the same move updates what changed and leaves the rest alone.
CREATE TABLE external_ids (
  organization_id text NOT NULL REFERENCES organizations(id),
  source      text NOT NULL CHECK (source ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
  kind        text NOT NULL CHECK (kind IN ('animal', 'person', 'stay', 'medical', 'weight', 'note', 'foster', 'donation')),
  external_id text NOT NULL CHECK (external_id <> ''),
  ark_id      text NOT NULL,
  fingerprint text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, source, kind, external_id)
);
-- "Where did this Ark record come from?"
CREATE INDEX external_ids_ark ON external_ids (organization_id, kind, ark_id);

-- A move run in the background by the job queue. The source's records, read and normalized when the run was
-- accepted, wait in the blob store (file_key); each batch commits with its checkpoint (phase and next record) and
-- the report so far, in one transaction, so a worker that stops resumes where the last batch ended.
CREATE TABLE moving_runs (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  job_id      text,
  source      text NOT NULL,
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  file_key    text NOT NULL,
  actor       text NOT NULL,
  total       integer NOT NULL,
  phase       integer NOT NULL DEFAULT 0,
  next_index  integer NOT NULL DEFAULT 0,
  done        integer NOT NULL DEFAULT 0,
  batches     integer NOT NULL DEFAULT 0,
  report      jsonb NOT NULL,
  failure     text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  started_at  timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX moving_runs_recent ON moving_runs (organization_id, created_at DESC);
