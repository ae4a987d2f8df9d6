import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { animalExists, lockAnimalPlace } from '../animals/public.ts';
import * as repo from './holds.repository.ts';
import { latestStay } from './repository.ts';
import type { HoldCreateT, HoldPatchT, HoldT } from './schemas.ts';

export function toHold(r: repo.HoldRow): HoldT {
  return {
    id: r.id,
    animal_id: r.animal_id,
    reason: r.reason as HoldT['reason'],
    starts_at: r.starts_at,
    until: r.until_date ?? (r.until_at ? r.until_at.toISOString() : null),
    ends_at: r.ends_at,
    live: r.live,
    placed_by: r.placed_by,
    released_at: r.released_at,
    released_by: r.released_by,
    release_notes: r.release_notes,
    notes: r.notes,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * `until` as sent → its columns. A date ends the hold as that day begins in the organization's time zone
 * (so a stray hold "until 10 March" is over at midnight between the 9th and the 10th there).
 */
export function parseUntil(
  until: string | null,
  tz: string,
): { until_at: string | null; until_date: string | null; ends_at: string | null } {
  if (until === null) return { until_at: null, until_date: null, ends_at: null };
  if (/^\d{4}-\d{2}-\d{2}$/.test(until)) {
    const day = DateTime.fromISO(until, { zone: tz });
    if (!day.isValid) throw invalid({ until: ['must be a real date'] });
    return { until_at: null, until_date: until, ends_at: day.startOf('day').toUTC().toISO() };
  }
  const at = DateTime.fromISO(until, { setZone: true });
  if (!at.isValid) throw invalid({ until: ['must be a date or an ISO 8601 date-time with its offset'] });
  const iso = at.toUTC().toISO();
  return { until_at: iso, until_date: null, ends_at: iso };
}

const nowIso = () => new Date().toISOString();

async function holdOrFail(q: Queryable, orgId: string, id: string, at: string): Promise<HoldT> {
  const row = await repo.getHold(q, orgId, id, at);
  if (!row) throw notFound('hold');
  return toHold(row);
}

export async function getHold(q: Queryable, orgId: string, id: string): Promise<HoldT> {
  return holdOrFail(q, orgId, id, nowIso());
}

/** Places a hold on an animal in care (one with an open stay); any number may be live at once. */
export async function placeHold(db: Db, orgId: string, animalId: string, body: HoldCreateT, actor: string, tz: string): Promise<HoldT> {
  return db.tx(async (q) => {
    if (!(await lockAnimalPlace(q, orgId, animalId, true))) throw notFound('animal');
    const stay = await latestStay(q, orgId, animalId);
    if (!stay || stay.outcome_at !== null) throw invalid({ animal_id: ['the animal is not in care (it has no open stay)'] });
    const startsAt = body.starts_at ? (DateTime.fromISO(body.starts_at, { setZone: true }).toUTC().toISO() ?? body.starts_at) : nowIso();
    const until = parseUntil(body.until ?? null, tz);
    if (until.ends_at && until.ends_at <= startsAt) throw invalid({ until: ['must be after the start of the hold'] });
    const id = await repo.insertHold(q, orgId, {
      animal_id: animalId,
      reason: body.reason,
      starts_at: startsAt,
      ...until,
      placed_by: actor,
      notes: body.notes?.trim() ? body.notes : null,
    });
    await audit(q, orgId, actor, 'create', 'animal_hold', id, { animal_id: animalId, ...body });
    return holdOrFail(q, orgId, id, nowIso());
  });
}

/** Changes an unreleased hold's reason, end or notes. */
export async function updateHold(db: Db, orgId: string, id: string, body: HoldPatchT, actor: string, tz: string): Promise<HoldT> {
  return db.tx(async (q) => {
    const hold = await repo.getHold(q, orgId, id, nowIso(), true);
    if (!hold) throw notFound('hold');
    if (hold.released_at) throw invalid({ id: ['the hold was released; place a new one'] });
    const until = body.until === undefined ? undefined : parseUntil(body.until, tz);
    if (until?.ends_at && new Date(until.ends_at) <= hold.starts_at) throw invalid({ until: ['must be after the start of the hold'] });
    await repo.updateHold(q, orgId, id, {
      reason: body.reason,
      until,
      notes: body.notes === undefined ? undefined : body.notes?.trim() ? body.notes : null,
    });
    await audit(q, orgId, actor, 'update', 'animal_hold', id, body);
    return holdOrFail(q, orgId, id, nowIso());
  });
}

/** Ends a hold now. A hold already released or already ended by its `until` cannot be released. */
export async function releaseHold(db: Db, orgId: string, id: string, notes: string | null | undefined, actor: string): Promise<HoldT> {
  return db.tx(async (q) => {
    const now = nowIso();
    const hold = await repo.getHold(q, orgId, id, now, true);
    if (!hold) throw notFound('hold');
    if (hold.released_at) throw invalid({ id: ['the hold is already released'] });
    if (hold.ends_at && hold.ends_at.toISOString() <= now) throw invalid({ id: ['the hold has already ended'] });
    await repo.releaseHold(q, orgId, id, now, actor, notes?.trim() ? notes : null);
    await audit(q, orgId, actor, 'release', 'animal_hold', id, notes ? { notes } : undefined);
    return holdOrFail(q, orgId, id, now);
  });
}

/** An animal's holds as of `at`, with whether it is available then (an open stay and no live hold). */
export async function listHolds(
  q: Queryable,
  orgId: string,
  animalId: string,
  query: { limit: number; offset: number; live?: boolean; at?: string },
) {
  if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
  const at = query.at ? (DateTime.fromISO(query.at, { setZone: true }).toUTC().toISO() ?? nowIso()) : nowIso();
  const rows = await repo.holdsOf(q, orgId, animalId, at, { live: query.live }, query.limit + 1, query.offset);
  const anyLive = (await repo.liveHoldAnimals(q, orgId, [animalId], at)).length > 0;
  const stay = await latestStay(q, orgId, animalId);
  const inCare = stay !== null && new Date(at) >= stay.intake_at && (stay.outcome_at === null || stay.outcome_at > new Date(at));
  return {
    results: rows.slice(0, query.limit).map(toHold),
    limit: query.limit,
    offset: query.offset,
    has_more: rows.length > query.limit,
    at,
    available: inCare && !anyLive,
  };
}

/** The holds live now on one animal. */
export async function liveHoldsOf(q: Queryable, orgId: string, animalId: string): Promise<HoldT[]> {
  return (await repo.holdsOf(q, orgId, animalId, nowIso(), { live: true }, null)).map(toHold);
}
