/**
 * A hold starts and ends with the clock, not with a write; the public listing has no row for an animal on a hold in
 * force (migration 2030), so it is brought up to date at those moments by the job queue. Every write of a hold queues,
 * from its trigger, a job of this kind at each of the hold's boundaries still ahead (keyed by the hold and the moment,
 * so once); the job refreshes the animal's listing row and its tallies and tells every process's response cache.
 * Idempotent: a job for a boundary that moved or a hold released since finds the row as it already is.
 */
import { defineJob } from '../../platform/jobs.ts';
import { sql, kx } from '../../platform/db/kysely.ts';

export const HOLD_CLOCK_JOB = 'publicsite.hold_clock';

defineJob<{ animal_id: string }>(
  HOLD_CLOCK_JOB,
  async (ctx, job) => {
    await sql`SELECT public_listing_hold_clock(${job.orgId}, ${job.payload.animal_id})`.execute(kx(ctx.db));
    return { refreshed: job.payload.animal_id };
  },
  { maxAttempts: 5, backoffMs: (attempt) => 1000 * attempt, leaseMs: 30_000 },
);
