-- Webhook delivery runs on the job queue (src/platform/jobs.ts, src/modules/integrations/delivery.ts).
-- A transaction that records a change for an organization with webhook endpoints also queues, at its commit, the
-- organization's fan-out job (kind webhooks.fanout, key 'fanout'): the same insert as ensureJob() in jobs.ts, done here
-- because changes are recorded by every area and this trigger sees each committing transaction once per organization.
-- It runs after ark_changes_commit (triggers fire in name order), so under the commit lock: the job row stays locked
-- only for the instant before the commit, and the worker that claims the job sees the changes numbered.
CREATE FUNCTION ark_changes_wake_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seen text := coalesce(current_setting('ark.webhooks_woken', true), '');
BEGIN
  IF position(',' || NEW.organization_id || ',' IN seen) > 0 THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('ark.webhooks_woken', CASE WHEN seen = '' THEN ',' ELSE seen END || NEW.organization_id || ',', true);
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE organization_id = NEW.organization_id) THEN
    INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
    VALUES (NEW.organization_id, 'job_' || substr(md5(random()::text || clock_timestamp()::text), 1, 20), 'webhooks.fanout',
            'fanout', '{}', now(), 20, 600000)
    ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL
    DO UPDATE SET run_at = least(jobs.run_at, excluded.run_at) WHERE jobs.status = 'queued';
    PERFORM pg_notify('ark_jobs', 'webhooks.fanout');
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ark_changes_webhooks AFTER INSERT ON ark_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ark_changes_wake_webhooks();
