/**
 * What other modules may use of the operations module (it owns locations, housing units, foster homes
 * and transports).
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { notFound } from '../../platform/errors.ts';
import { getHome, homeOfPerson } from './foster.repository.ts';
import { act, updateHome } from './foster.service.ts';
import { audit } from '../../platform/audit.ts';
import { lockAnimalPlace, setAnimalLocation } from '../animals/public.ts';
export { checkAnimalLocation } from './housing.service.ts';

/** A foster assignment that ended (or ends) on a date, for the animal calendar. */
export interface FosterEnding {
  id: string;
  animal_id: string;
  ended_on: string;
  foster_name: string;
}
/**
 * Foster assignments with an end date from `from` to `to` (dates, inclusive), optionally of one animal.
 * An assignment has no planned end: the date is the day it was ended.
 */
export async function fosterEndingsBetween(q: Queryable, orgId: string, from: string, to: string, animalId?: string) {
  let list = kx(q)
    .selectFrom('foster_assignments as fa')
    .innerJoin('foster_homes as h', (j) => j.onRef('h.organization_id', '=', 'fa.organization_id').onRef('h.id', '=', 'fa.foster_home_id'))
    .leftJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'h.organization_id').onRef('p.id', '=', 'h.person_id'))
    .select(['fa.id', 'fa.animal_id', sql<string>`fa.ended_on`.as('ended_on'), sql<string>`coalesce(p.display_name, '')`.as('foster_name')])
    .where('fa.organization_id', '=', orgId)
    .where(sql<boolean>`fa.ended_on BETWEEN ${from}::date AND ${to}::date`);
  if (animalId !== undefined) list = list.where('fa.animal_id', '=', animalId);
  return list.orderBy('fa.ended_on').orderBy('fa.id').execute();
}

/** An animal on a transport run, for the animal calendar. */
export interface TransportOfAnimal {
  run_id: string;
  animal_id: string;
  name: string;
  scheduled_date: string;
  origin: string;
  destination: string;
  status: string;
}
/** Animals on transport runs (not cancelled) scheduled from `from` to `to` (dates, inclusive), optionally of one animal. */
export async function transportsBetween(q: Queryable, orgId: string, from: string, to: string, animalId?: string) {
  let list = kx(q)
    .selectFrom('transport_runs as r')
    .innerJoin('transport_animals as ta', (j) => j.onRef('ta.organization_id', '=', 'r.organization_id').onRef('ta.run_id', '=', 'r.id'))
    .select(['r.id as run_id', 'ta.animal_id', 'r.name', 'r.scheduled_date', 'r.origin', 'r.destination', 'r.status'])
    .where('r.organization_id', '=', orgId)
    .where(sql<boolean>`r.scheduled_date BETWEEN ${from}::date AND ${to}::date`)
    .where('r.status', '<>', 'cancelled');
  if (animalId !== undefined) list = list.where('ta.animal_id', '=', animalId);
  return list.orderBy('r.scheduled_date').orderBy('r.id').orderBy('ta.animal_id').execute();
}

/**
 * Ends the animal's live foster assignment, if any, because it was adopted (in the caller's transaction): an
 * active placement becomes completed on `endedOn` with end reason `adopted`; a pending or accepted offer is
 * cancelled. An animal placed in that home loses its location (it left the organization's care). Returns the
 * assignment's id, or null when there was none.
 */
export async function endFosterForAdoption(
  q: Queryable,
  orgId: string,
  animalId: string,
  endedOn: string,
  actor: string,
): Promise<string | null> {
  const a = await kx(q)
    .selectFrom('foster_assignments')
    .select(['id', 'status', 'foster_home_id', 'started_on'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('status', 'in', ['pending', 'accepted', 'active'])
    .forUpdate()
    .executeTakeFirst();
  if (!a) return null;
  const active = a.status === 'active';
  const ended = active && a.started_on && endedOn < a.started_on ? a.started_on : endedOn;
  await kx(q)
    .updateTable('foster_assignments')
    .set({ status: active ? 'completed' : 'cancelled', ended_on: ended, end_reason: active ? 'adopted' : null, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', a.id)
    .execute();
  const animal = await lockAnimalPlace(q, orgId, animalId, false);
  if (animal?.location_id === a.foster_home_id) await setAnimalLocation(q, orgId, animalId, null);
  await audit(
    q,
    orgId,
    actor,
    active ? 'end' : 'cancel',
    'foster_assignment',
    a.id,
    active ? { end_reason: 'adopted' } : { reason: 'adopted' },
  );
  return a.id;
}

/**
 * SQL for the site (an active location's id) where the place `placeSql` is: the location itself, or the
 * location of a housing unit; NULL for a foster home, no place, or a location no longer in use. Both
 * arguments are SQL expressions (e.g. parameters, columns).
 */
export const placeSiteSql = (orgSql: string, placeSql: string) =>
  `(SELECT l.id FROM locations l WHERE l.organization_id = ${orgSql} AND l.is_active AND l.id = coalesce(
      (SELECT u.location_id FROM housing_units u WHERE u.organization_id = ${orgSql} AND u.id = ${placeSql}), ${placeSql}))`;

/**
 * SQL for the name of the place `placeSql` (a location or housing unit id) as a person reads it: the location's name,
 * or `location · unit` for a housing unit; NULL for no place or a foster home. Both arguments are SQL expressions.
 */
export const placeNameSql = (orgSql: string, placeSql: string) =>
  `coalesce((SELECT l.name || ' · ' || u.name FROM housing_units u JOIN locations l ON l.organization_id = u.organization_id
      AND l.id = u.location_id WHERE u.organization_id = ${orgSql} AND u.id = ${placeSql}),
    (SELECT l.name FROM locations l WHERE l.organization_id = ${orgSql} AND l.id = ${placeSql}))`;

/** Id and name of the organization's active locations among `ids`, by name (for a public filter). */
export async function locationNames(q: Queryable, orgId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return kx(q)
    .selectFrom('locations')
    .select(['id', 'name'])
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`id = ANY(${ids}::text[])`)
    .where('is_active', '=', true)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/**
 * Moving: foster placements brought over from another system. The foster's home is found by its person, or made
 * (active, room for one, "Brought over from another system"); the placement is written or rewritten by id, ended
 * (`completed`) when it has an end date, else `active`. One audit row each.
 */
export async function importFosterPlacements(
  q: Queryable,
  orgId: string,
  rows: { id: string; animal_id: string; person_id: string; started_on: string; ended_on: string | null; notes: string | null }[],
  actor: string,
): Promise<void> {
  if (!rows.length) return;
  const people = [...new Set(rows.map((r) => r.person_id))];
  await sql`
    INSERT INTO foster_homes (organization_id, id, person_id, capacity, notes)
    SELECT ${orgId}, 'fos_' || substr(md5(${orgId} || '/' || p), 1, 20), p, 1, 'Brought over from another system'
      FROM unnest(${people}::text[]) AS p
    ON CONFLICT (organization_id, person_id) DO NOTHING`.execute(kx(q));
  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  await sql`
    WITH w AS (
      INSERT INTO foster_assignments (organization_id, id, foster_home_id, animal_id, status, requested_on, started_on, ended_on, notes)
      SELECT ${orgId}, u.id, h.id, u.a, CASE WHEN u.e IS NULL THEN 'active' ELSE 'completed' END, u.s, u.s, u.e, u.n
        FROM unnest(${col('id')}::text[], ${col('animal_id')}::text[], ${col('person_id')}::text[], ${col('started_on')}::date[],
                    ${col('ended_on')}::date[], ${col('notes')}::text[]) AS u(id, a, p, s, e, n)
        JOIN foster_homes h ON h.organization_id = ${orgId} AND h.person_id = u.p
      ON CONFLICT (organization_id, id) DO UPDATE SET foster_home_id = EXCLUDED.foster_home_id, status = EXCLUDED.status,
        requested_on = EXCLUDED.requested_on, started_on = EXCLUDED.started_on, ended_on = EXCLUDED.ended_on, notes = EXCLUDED.notes,
        updated_at = now()
      RETURNING id, animal_id, (xmax = 0) AS inserted)
    INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
    SELECT ${orgId}, ${actor}, CASE WHEN inserted THEN 'import' ELSE 'import_update' END, 'foster_assignment', id,
           jsonb_build_object('animal_id', animal_id)
      FROM w`.execute(kx(q));
}

/** An animal placed with a person's foster home (offered, accepted or in care), for the person's own portal. */
export interface FosterPlacementOfPerson {
  id: string;
  animal_id: string;
  status: 'pending' | 'accepted' | 'active';
  requested_on: string;
  started_on: string | null;
}
/** The live placements (offered, accepted, in care) of the foster home of `personId`, oldest first. */
export async function livePlacementsOfPerson(q: Queryable, orgId: string, personId: string): Promise<FosterPlacementOfPerson[]> {
  const rows = await kx(q)
    .selectFrom('foster_assignments as fa')
    .innerJoin('foster_homes as h', (j) => j.onRef('h.organization_id', '=', 'fa.organization_id').onRef('h.id', '=', 'fa.foster_home_id'))
    .select([
      'fa.id',
      'fa.animal_id',
      'fa.status',
      sql<string>`to_char(fa.requested_on, 'YYYY-MM-DD')`.as('requested_on'),
      sql<string | null>`to_char(fa.started_on, 'YYYY-MM-DD')`.as('started_on'),
    ])
    .where('fa.organization_id', '=', orgId)
    .where('h.person_id', '=', personId)
    .where('fa.status', 'in', ['pending', 'accepted', 'active'])
    .orderBy('fa.requested_on')
    .orderBy('fa.id')
    .limit(100)
    .execute();
  return rows as FosterPlacementOfPerson[];
}

export { placementStarted, type PlacementStartedHook } from './hooks.ts';

/** The foster home of a person (their availability), or null. */
export async function fosterHomeOfPerson(q: Queryable, orgId: string, personId: string) {
  const h = await homeOfPerson(q, orgId, personId);
  if (!h) return null;
  const home = await getHome(q, orgId, h.id);
  return home
    ? {
        id: home.id,
        status: home.status,
        capacity: home.capacity,
        spots_filled: home.spots_filled,
        species_preferences: home.species_preferences,
      }
    : null;
}

/**
 * The foster says when they can take animals: taking animals or paused, how many at once, which species. The rules of
 * a staff change apply (capacity not below the animals placed now). Null when the person has no foster home.
 */
export async function setFosterAvailability(
  db: Db,
  orgId: string,
  personId: string,
  b: { status: 'active' | 'paused'; capacity: number; species_preferences: string[] },
  actor: string,
  timeZone: string,
) {
  const h = await homeOfPerson(db, orgId, personId);
  if (!h) return null;
  return updateHome(db, orgId, h.id, b, actor, timeZone);
}

/** The foster accepts or declines a placement offered to their own home; an offer to another home is not found. */
export async function answerPlacementOffer(
  db: Db,
  orgId: string,
  personId: string,
  assignmentId: string,
  accept: boolean,
  reason: string | null,
  actor: string,
  timeZone: string,
) {
  const mine = await livePlacementsOfPerson(db, orgId, personId);
  if (!mine.some((p) => p.id === assignmentId && p.status === 'pending')) throw notFound('placement offer');
  return act(
    db,
    orgId,
    assignmentId,
    accept ? 'accept' : 'decline',
    accept ? {} : { decline_reason: reason ?? 'Declined by the foster' },
    actor,
    timeZone,
  );
}
