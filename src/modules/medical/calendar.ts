import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import { base62 } from '../../platform/ids.ts';
import { animalExists, animalSummaries } from '../animals/public.ts';
import { DateTime } from 'luxon';
import { fosterEndingsBetween, transportsBetween } from '../operations/public.ts';
import { holdsEndingBetween } from '../stays/public.ts';
import * as repo from './repository.ts';
import type { EntryT } from './schemas.ts';

/** The window a source is asked for: dates in the organization's zone, both inclusive. */
export interface CalendarWindow {
  orgId: string;
  zone: string;
  from: string;
  to: string;
  /** Only this animal's entries. */
  animalId?: string;
  /** A source returns at most this many entries. */
  limit: number;
}
/** A source entry; the calendar fills in the animal's name. */
export type SourceEntry = Omit<EntryT, 'animal_name'> & { animal_name?: string };
export type CalendarSource = (q: Queryable, w: CalendarWindow) => Promise<SourceEntry[]>;

const medicalDue: CalendarSource = async (q, w) =>
  (await repo.dueBetween(q, w.orgId, w.from, w.to, w.animalId, w.limit)).map((d) => ({
    date: d.due_on,
    kind: 'medical_due' as const,
    animal_id: d.animal_id,
    animal_name: d.animal_name,
    title: `${d.item_name}${d.dose_number ? ` (dose ${d.dose_number})` : ''} due`,
    source_id: d.id,
  }));

const fosterEnds: CalendarSource = async (q, w) =>
  (await fosterEndingsBetween(q, w.orgId, w.from, w.to, w.animalId)).slice(0, w.limit).map((f) => ({
    date: f.ended_on,
    kind: 'foster_ends' as const,
    animal_id: f.animal_id,
    title: f.foster_name ? `Foster with ${f.foster_name} ends` : 'Foster ends',
    source_id: f.id,
  }));

const transports: CalendarSource = async (q, w) =>
  (await transportsBetween(q, w.orgId, w.from, w.to, w.animalId)).slice(0, w.limit).map((t) => ({
    date: t.scheduled_date,
    kind: 'transport' as const,
    animal_id: t.animal_id,
    title: `Transport ${t.name}: ${t.origin} → ${t.destination}`,
    source_id: t.run_id,
  }));

const holdsEnd: CalendarSource = async (q, w) => {
  const from = DateTime.fromISO(w.from, { zone: w.zone }).startOf('day').toJSDate();
  const to = DateTime.fromISO(w.to, { zone: w.zone }).plus({ days: 1 }).startOf('day').toJSDate();
  const out: SourceEntry[] = [];
  for (const h of (await holdsEndingBetween(q, w.orgId, from, to, w.animalId)).slice(0, w.limit)) {
    if (h.ends_at === null) continue;
    const ends = DateTime.fromJSDate(new Date(h.ends_at)).setZone(w.zone);
    out.push({
      date: ends.toISODate() ?? w.from,
      kind: 'hold_ends' as const,
      animal_id: h.animal_id,
      title: `${h.reason.replaceAll('_', ' ')} hold ends`,
      source_id: h.id,
    });
  }
  return out;
};

/**
 * Where the animal calendar's entries come from. Another area adds its own with one line
 * (`calendarSources.push(...)`), e.g. holds ending.
 */
export const calendarSources: CalendarSource[] = [medicalDue, holdsEnd, fosterEnds, transports];

const ORDER = { medical_due: 0, hold_ends: 1, foster_ends: 2, transport: 3 } as const;

/** Every source's entries in the window, by date, kind, animal name; at most `limit` (truncated says more exist). */
export async function calendarEntries(q: Queryable, w: CalendarWindow): Promise<{ results: EntryT[]; truncated: boolean }> {
  const all = (await Promise.all(calendarSources.map((s) => s(q, { ...w, limit: w.limit + 1 })))).flat();
  const unnamed = [...new Set(all.filter((e) => e.animal_name === undefined).map((e) => e.animal_id))];
  const names = new Map((unnamed.length ? await animalSummaries(q, w.orgId, unnamed) : []).map((a) => [a.id, a.name]));
  const results = all
    .map((e) => ({ ...e, animal_name: e.animal_name ?? names.get(e.animal_id) ?? '' }))
    .sort(
      (a, b) =>
        a.date.localeCompare(b.date) ||
        ORDER[a.kind] - ORDER[b.kind] ||
        a.animal_name.localeCompare(b.animal_name) ||
        a.source_id.localeCompare(b.source_id),
    );
  return { results: results.slice(0, w.limit), truncated: results.length > w.limit };
}

/** The organization's feed is the one of animal id "". */
export const ORG_FEED = '';

/** A feed's token: made (40 random base62 characters) on first request, the same afterwards until rotated. */
export function feedLink(db: Db, orgId: string, actor: string, animalId: string, rotate: boolean) {
  return db.tx(async (q) => {
    if (animalId !== ORG_FEED && !(await animalExists(q, orgId, animalId))) throw notFound('animal');
    let row = rotate ? null : await repo.feedToken(q, orgId, animalId);
    if (!row) {
      row = await repo.setFeedToken(q, orgId, animalId, base62(40));
      await audit(q, orgId, actor, rotate ? 'rotate' : 'create', 'animal_calendar_feed', animalId || orgId);
    }
    return { animal_id: animalId || null, token: row.token, created_at: row.created_at };
  });
}
