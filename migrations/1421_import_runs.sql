-- Background imports (src/modules/integrations/import.jobs.ts): a file above 50,000 rows, or any file sent with
-- "background": true, is stored in the blob store and imported by the job queue in batches. Each batch commits with
-- its checkpoint (the next row, the counts so far, the first refused rows and likely duplicates) in this row, in the
-- same transaction: a worker that stops between batches resumes from the checkpoint and never imports a row twice.
CREATE TABLE import_runs (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  job_id text,
  target text NOT NULL CHECK (target IN ('animals', 'people')),
  dry_run boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  file_key text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'xlsx')),
  -- The resolved columns, defaults, date order and choices the run was accepted with.
  options jsonb NOT NULL,
  actor text NOT NULL,
  total_rows integer NOT NULL,
  -- The checkpoint: data rows [0, next_row) are done (line = row + 2; the header is line 1).
  next_row integer NOT NULL DEFAULT 0,
  batches integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]',
  duplicate_count integer NOT NULL DEFAULT 0,
  duplicates jsonb NOT NULL DEFAULT '[]',
  unmapped_columns jsonb NOT NULL DEFAULT '[]',
  failure text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX import_runs_recent ON import_runs (organization_id, target, created_at DESC);
