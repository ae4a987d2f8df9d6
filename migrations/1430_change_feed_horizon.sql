-- The change feed without a commit lock (issue 11). Until now a deferred trigger numbered each transaction's changes
-- at commit (`commit_seq`) under one advisory lock held until the commit was durable: every writing transaction of
-- every organization committed one after another. From here on a change is only inserted; its place in the feed is
-- (txid, pos), the writer's transaction id and the row's number inside it, and readers (the feed, the webhook
-- fan-out) return only changes of transactions below the horizon, pg_snapshot_xmin(pg_current_snapshot()): every
-- transaction below it has ended, so no change can appear later before a cursor a reader has passed
-- (src/platform/changes.ts, `changesAfter`).
--
-- Rows numbered before this migration keep their commit_seq and come first, in their old order; a row without one is
-- placed at txid + 1,000,000,000,000 (FEED_TXID_BASE), above every commit_seq (one per committed transaction: far
-- fewer). So a cursor `<seq>-<pos>` handed out before this migration still reads on exactly where it stopped, and
-- webhook_deliveries.commit_seq, webhook_cursors.commit_seq and webhook_endpoints.start_seq hold that same number.
-- Dropping the trigger waits for the transactions writing changes now: they commit numbered, and all later rows are not.
DROP TRIGGER ark_changes_commit ON ark_changes;
DROP FUNCTION ark_changes_commit();
DROP SEQUENCE ark_change_commit_seq;
DROP INDEX ark_changes_committing;

-- The old rows' order (no new row enters this index), and the new rows' order.
CREATE INDEX ark_changes_feed_numbered ON ark_changes (organization_id, commit_seq, pos) WHERE commit_seq IS NOT NULL;
DROP INDEX ark_changes_feed;
CREATE INDEX ark_changes_feed_txid ON ark_changes (organization_id, txid, pos) WHERE commit_seq IS NULL;

-- An endpoint gets the changes of the transactions its creation did not see committed: the creating statement's
-- snapshot (NULL for endpoints added before, which start at their start_seq alone).
ALTER TABLE webhook_endpoints ADD COLUMN start_snapshot pg_snapshot;

-- The webhook wake-up, without a lock and without touching a row another writer touches. At its commit a transaction
-- that recorded a change for an organization with endpoints looks for the organization's waiting fan-out job
-- (webhooks.fanout, key 'fanout') with a plain read; only when none waits does it add one (and only then notifies the
-- worker: NOTIFY serializes the commits of the transactions that use it). A job waiting to run within two seconds is
-- left alone, neither brought forward nor locked.
-- No wake-up is lost: a writer that found a job waiting had its transaction id before that job was claimed, and
-- the fan-out does not finish before its horizon has passed every transaction id given out before it started
-- (src/modules/integrations/delivery.ts, `fanOut`), so it sends that writer's changes, or queues its next run.
CREATE OR REPLACE FUNCTION ark_changes_wake_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seen text := coalesce(current_setting('ark.webhooks_woken', true), '');
  due timestamptz;
  added integer;
BEGIN
  IF position(',' || NEW.organization_id || ',' IN seen) > 0 THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('ark.webhooks_woken', CASE WHEN seen = '' THEN ',' ELSE seen END || NEW.organization_id || ',', true);
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE organization_id = NEW.organization_id) THEN
    RETURN NULL;
  END IF;
  SELECT run_at INTO due FROM jobs
   WHERE organization_id = NEW.organization_id AND kind = 'webhooks.fanout' AND key = 'fanout' AND status = 'queued';
  IF NOT FOUND THEN
    INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
    VALUES (NEW.organization_id, 'job_' || substr(md5(random()::text || clock_timestamp()::text), 1, 20), 'webhooks.fanout',
            'fanout', '{}', now(), 20, 600000)
    ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    IF added > 0 THEN
      PERFORM pg_notify('ark_jobs', 'webhooks.fanout');
    END IF;
  ELSIF due > now() + interval '2 seconds' THEN
    -- A fan-out that failed waits for its retry: a write brings it forward (rare; the one case that takes its row).
    UPDATE jobs SET run_at = now()
     WHERE organization_id = NEW.organization_id AND kind = 'webhooks.fanout' AND key = 'fanout' AND status = 'queued'
       AND run_at > now() + interval '2 seconds';
  END IF;
  RETURN NULL;
END $$;
