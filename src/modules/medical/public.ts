/**
 * What other modules may use of the medical module (it owns medical_items, medical_protocols,
 * medical_records, medical_due and animal_calendar_feeds).
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { openDueOfAnimal } from './repository.ts';
import { createRecord } from './service.ts';

/** Run when an animal enters care (intake): makes the first due items of its species' protocols. */
export { applyProtocols } from './service.ts';
/** The animal calendar's sources: another area adds one with `calendarSources.push(fn)`. */
export { calendarSources, type CalendarSource, type CalendarWindow } from './calendar.ts';
/** The animal calendar's entries in a window (every source), for the organization calendar. */
export { calendarEntries } from './calendar.ts';

/** A medical record brought over from another system (moving). */
export interface ImportedMedicalRecord {
  id: string;
  animal_id: string;
  kind: 'vaccine' | 'test' | 'treatment' | 'procedure';
  name: string;
  given_at: string;
  next_due_on: string | null;
  dose: string | null;
  lot: string | null;
  manufacturer: string | null;
  rabies_tag: string | null;
  result: 'negative' | 'positive' | 'unknown' | null;
  notes: string | null;
}
/**
 * Moving: writes medical history as the other system had it (no due items are made from it), many rows a statement,
 * one audit row each; an id already on file is rewritten.
 */
export async function importMedicalRecords(q: Queryable, orgId: string, rows: ImportedMedicalRecord[], actor: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const c = rows.slice(i, i + 1000);
    const col = <K extends keyof ImportedMedicalRecord>(k: K) => c.map((r) => r[k]);
    await sql`WITH w AS (
         INSERT INTO medical_records (organization_id, id, animal_id, kind, name, given_at, next_due_on, dose, lot, manufacturer,
                                      rabies_tag, result, notes, given_by)
         SELECT ${orgId}, u.*, NULL FROM unnest(${col('id')}::text[], ${col('animal_id')}::text[], ${col('kind')}::text[],
                                      ${col('name')}::text[], ${col('given_at')}::timestamptz[], ${col('next_due_on')}::date[],
                                      ${col('dose')}::text[], ${col('lot')}::text[], ${col('manufacturer')}::text[],
                                      ${col('rabies_tag')}::text[], ${col('result')}::text[], ${col('notes')}::text[]) AS u
         ON CONFLICT (organization_id, id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, given_at = EXCLUDED.given_at,
           next_due_on = EXCLUDED.next_due_on, dose = EXCLUDED.dose, lot = EXCLUDED.lot, manufacturer = EXCLUDED.manufacturer,
           rabies_tag = EXCLUDED.rabies_tag, result = EXCLUDED.result, notes = EXCLUDED.notes, updated_at = now()
         RETURNING id, animal_id, (xmax = 0) AS inserted)
       INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
       SELECT ${orgId}, ${actor}, CASE WHEN inserted THEN 'import' ELSE 'import_update' END, 'medical_record', id,
              jsonb_build_object('animal_id', animal_id) FROM w`.execute(kx(q));
  }
}

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
  return kx(q)
    .selectFrom('medical_records')
    .select(['name', 'given_at'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('kind', '=', 'vaccine')
    .orderBy('given_at', 'desc')
    .orderBy('id')
    .limit(50)
    .execute();
}
