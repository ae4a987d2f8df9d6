/**
 * What other modules may use of the medical module (it owns medical_items, medical_protocols,
 * medical_records, medical_due and animal_calendar_feeds).
 */
import type { Queryable } from '../../platform/db/db.ts';
import { openDueOfAnimal } from './repository.ts';
import { createRecord } from './service.ts';

/** Run when an animal enters care (intake): makes the first due items of its species' protocols. */
export { applyProtocols } from './service.ts';
/** The animal calendar's sources: another area adds one with `calendarSources.push(fn)`. */
export { calendarSources, type CalendarSource, type CalendarWindow } from './calendar.ts';
/** The animal calendar's entries in a window (every source), for the organization calendar. */
export { calendarEntries } from './calendar.ts';

/** The open due items (vaccines, tests, treatments not yet done) of an animal, soonest first: name and date only. */
export async function openDueItems(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ name: string; kind: string; due_on: string }[]> {
  return (await openDueOfAnimal(q, orgId, animalId)).map((d) => ({ name: d.item_name, kind: d.kind, due_on: d.due_on }));
}

/**
 * Records a treatment given outside the shelter (a foster reporting a medication), with its audit row, inside the
 * caller's transaction; the rules of a staff record apply (a given time in the future is refused). Returns the record's id.
 */
export async function recordTreatmentGiven(
  q: Queryable,
  org: { id: string; time_zone: string },
  animalId: string,
  r: { name: string; dose: string | null; given_at: string; given_by: string; notes: string | null },
  actor: string,
): Promise<string> {
  const rec = await createRecord(
    q,
    org,
    animalId,
    { kind: 'treatment', name: r.name, dose: r.dose, given_at: r.given_at, given_by: r.given_by, notes: r.notes },
    actor,
  );
  return rec.id;
}

/** The vaccines an animal was given (name and date), newest first: what an adopter is shown of its records. */
export async function vaccinationsOf(q: Queryable, orgId: string, animalId: string): Promise<{ name: string; given_at: Date }[]> {
  return q.query<{ name: string; given_at: Date }>(
    `SELECT name, given_at FROM medical_records WHERE organization_id = $1 AND animal_id = $2 AND kind = 'vaccine'
      ORDER BY given_at DESC, id LIMIT 50`,
    [orgId, animalId],
  );
}
