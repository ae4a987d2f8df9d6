-- The worker claims due jobs kind by kind (each kind within its own concurrency): the due jobs of one kind, oldest
-- first, without walking past the due jobs of every other kind. Like jobs_due, it spans organizations.
CREATE INDEX jobs_due_by_kind ON jobs (kind, run_at, created_at) WHERE status = 'queued';
