-- Outbound mail moves onto the job queue (src/platform/jobs.ts): each queued message is sent by a job of kind
-- communications.send keyed by its message id (src/modules/communications/outbound.ts). Messages waiting at the upgrade
-- get their job here, so none is left unsent: a queued one at its next attempt time; one a worker of the previous
-- version had claimed (`sending`) once that worker's ten-minute claim would have run out, when the job finds it
-- either not yet handed to a provider (sent then) or caught mid-conversation (failed for review, never resent).
INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
SELECT m.organization_id, 'job_' || substr(md5(random()::text || clock_timestamp()::text || m.id), 1, 20), 'communications.send',
       m.id, jsonb_build_object('message_id', m.id),
       CASE WHEN m.status = 'sending' THEN greatest(now(), coalesce(m.locked_at, now()) + interval '10 minutes')
            ELSE m.next_attempt_at END,
       20, 120000
  FROM comm_messages m
 WHERE m.direction = 'outbound' AND m.status IN ('queued', 'sending')
ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL DO NOTHING;

-- The old worker's queue index is no longer read: the job queue has its own.
DROP INDEX IF EXISTS comm_messages_queue;
