-- Which worker holds a running job's claim. Each job worker holds a PostgreSQL advisory lock named after itself on its
-- LISTEN connection for as long as its process lives; a claim whose worker's lock is gone (the process was killed, its
-- connection closed) is given back to the queue at once instead of when its lease runs out (src/platform/jobs.ts).
ALTER TABLE jobs ADD COLUMN locked_by text;
