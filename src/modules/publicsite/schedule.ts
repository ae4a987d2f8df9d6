/**
 * The schedule of syndication uploads, on the kernel's job queue: each enabled target is uploaded once a
 * day at 05:00 UTC. The job for a day is enqueued under the key `{target id}:{date}`, so however many
 * processes enqueue it, it exists (and runs) once; each run enqueues the next day's. A target created or
 * enabled gets its next run enqueued in the same transaction. A disabled or removed target's job does nothing.
 */
import type { AppContext } from '../../platform/context.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { organizationSlug } from '../settings/public.ts';
import { getTarget } from './syndication.repository.ts';
import { runTarget } from './syndication.ts';
import { AppError } from '../../platform/errors.ts';

export const SYNDICATE_JOB = 'publicsite.syndicate';
const HOUR_UTC = 5;

/** The next daily slot after `now`. */
export function nextSlot(now = new Date()): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), HOUR_UTC));
  if (d <= now) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

/** Enqueues the target's next daily upload (nothing when it is queued already). */
export async function scheduleNext(q: Queryable, orgId: string, targetId: string, after = new Date()): Promise<void> {
  const at = nextSlot(after);
  await enqueueJob(
    q,
    orgId,
    SYNDICATE_JOB,
    { target_id: targetId, slot: at.toISOString() },
    { runAt: at, key: `${targetId}:${at.toISOString().slice(0, 10)}`, maxAttempts: 3 },
  );
}

defineJob<{ target_id: string; slot?: string }>(
  SYNDICATE_JOB,
  async (ctx: AppContext, job) => {
    const t = await getTarget(ctx.db, job.orgId, job.payload.target_id);
    if (!t || !t.enabled) return { skipped: t ? 'disabled' : 'removed' };
    // The next day's run first: a failure below retries this one, and the chain goes on.
    const slot = job.payload.slot ? new Date(job.payload.slot) : new Date();
    await scheduleNext(ctx.db, job.orgId, t.id, slot > new Date() ? slot : new Date());
    const slug = await organizationSlug(ctx.db, job.orgId);
    if (!slug) return { skipped: 'no organization' };
    try {
      const r = await runTarget(ctx.db, ctx.config, job.orgId, slug, t.id, 'job:syndication');
      if (r.status === 'failed') throw new Error(r.error ?? 'the upload failed');
      return r;
    } catch (e) {
      // Someone is uploading this target right now: that upload is this one.
      if (e instanceof AppError && e.status === 409) return { skipped: 'running' };
      throw e;
    }
  },
  { maxAttempts: 3, backoffMs: (attempt) => 5 * 60_000 * attempt, leaseMs: 15 * 60_000 },
);
