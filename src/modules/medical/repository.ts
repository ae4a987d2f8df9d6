import type { NotNull } from 'kysely';
import { first, type Queryable } from '../../platform/db/db.ts';
import type { Kysely } from 'kysely';
import { compiler, kx, sql, statement, type DB, type InferResult, type Selectable } from '../../platform/db/kysely.ts';
import { newId } from '../../platform/ids.ts';
import type { ItemT, Kind, ProtocolT, RecordT, RESULTS, ROUTES } from './schemas.ts';

/** The one row a statement returns (an INSERT ... RETURNING, a read of a row just written). */
export const one = <T>(rows: readonly T[]): T => first(rows);

/** A stored time as the wire's ISO UTC string (null stays null). */
const iso = <A extends string, T extends string | null = string>(col: string, as: A) =>
  sql<T>`to_char(${sql.ref(col)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(as);
/** The kind column as its checked enum (a check constraint holds it to the kinds). */
/** The row as it is, typed with its kind (held to the list by a check constraint): no copy per row. */
const withKind = <R extends { kind: string }>(r: R): Omit<R, 'kind'> & { kind: Kind } => r as Omit<R, 'kind'> & { kind: Kind };

// ---- catalogue ----
const ITEM_COLS = ['id', 'kind', 'name', 'species', 'default_product', 'default_manufacturer', 'alters'] as const;
const ITEM_TIMES = [iso('created_at', 'created_at'), iso('updated_at', 'updated_at')] as const;
type ItemFields = Omit<ItemT, 'id' | 'created_at' | 'updated_at'>;

export async function listItems(
  q: Queryable,
  orgId: string,
  f: { kind?: string; species?: string },
  limit: number,
  offset: number,
): Promise<ItemT[]> {
  let list = kx(q).selectFrom('medical_items').select(ITEM_COLS).select(ITEM_TIMES).where('organization_id', '=', orgId);
  if (f.kind !== undefined) list = list.where('kind', '=', f.kind);
  if (f.species !== undefined) list = list.where(sql<boolean>`(species = '{}' OR lower(${f.species}) = ANY(species))`);
  const rows = await list
    .orderBy('kind')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(withKind);
}
export async function itemById(q: Queryable, orgId: string, id: string): Promise<ItemT | null> {
  const row = await kx(q)
    .selectFrom('medical_items')
    .select(ITEM_COLS)
    .select(ITEM_TIMES)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? withKind(row) : null;
}
export async function itemNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  const row = await kx(q)
    .selectFrom('medical_items')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where(sql`lower(name)`, '=', sql`lower(${name})`)
    .where('id', '<>', exceptId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}
export async function insertItem(q: Queryable, orgId: string, i: ItemFields): Promise<ItemT> {
  const row = await kx(q)
    .insertInto('medical_items')
    .values({
      organization_id: orgId,
      id: newId('mci'),
      kind: i.kind,
      name: i.name,
      species: i.species,
      default_product: i.default_product,
      default_manufacturer: i.default_manufacturer,
      alters: i.alters,
    })
    .returning(ITEM_COLS)
    .returning(ITEM_TIMES)
    .executeTakeFirstOrThrow();
  return withKind(row);
}
export async function updateItem(q: Queryable, orgId: string, id: string, i: ItemT): Promise<ItemT> {
  const row = await kx(q)
    .updateTable('medical_items')
    .set({
      name: i.name,
      species: i.species,
      default_product: i.default_product,
      default_manufacturer: i.default_manufacturer,
      alters: i.alters,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(ITEM_COLS)
    .returning(ITEM_TIMES)
    .executeTakeFirstOrThrow();
  return withKind(row);
}
/** How many protocols, records and due items name the item. */
export async function itemUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const row = await kx(q)
    .selectNoFrom(
      sql<string>`(SELECT count(*) FROM medical_protocols WHERE organization_id = ${orgId} AND item_id = ${id})
          + (SELECT count(*) FROM medical_records WHERE organization_id = ${orgId} AND item_id = ${id})
          + (SELECT count(*) FROM medical_due WHERE organization_id = ${orgId} AND item_id = ${id})`.as('n'),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteItem(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('medical_items').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// ---- protocols ----
export type ProtocolFields = Omit<ProtocolT, 'id' | 'item_name' | 'kind' | 'created_at' | 'updated_at'>;
const protocolSelect = (q: Queryable) =>
  kx(q)
    .selectFrom('medical_protocols as p')
    .innerJoin('medical_items as i', (j) => j.onRef('i.organization_id', '=', 'p.organization_id').onRef('i.id', '=', 'p.item_id'))
    .select([
      'p.id',
      'p.name',
      'p.species',
      'p.item_id',
      'i.name as item_name',
      'i.kind',
      'p.start_age_weeks',
      'p.interval_days',
      'p.doses',
      'p.stop_age_weeks',
      'p.active',
      iso('p.created_at', 'created_at'),
      iso('p.updated_at', 'updated_at'),
    ]);

export async function listProtocols(
  q: Queryable,
  orgId: string,
  f: { species?: string; active?: boolean },
  limit: number,
  offset: number,
): Promise<ProtocolT[]> {
  let list = protocolSelect(q).where('p.organization_id', '=', orgId);
  if (f.species !== undefined) list = list.where('p.species', '=', sql<string>`lower(${f.species})`);
  if (f.active !== undefined) list = list.where('p.active', '=', f.active);
  const rows = await list
    .orderBy('p.species')
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(withKind);
}
export async function protocolById(q: Queryable, orgId: string, id: string): Promise<ProtocolT | null> {
  const row = await protocolSelect(q).where('p.organization_id', '=', orgId).where('p.id', '=', id).executeTakeFirst();
  return row ? withKind(row) : null;
}
export async function activeProtocolsFor(q: Queryable, orgId: string, species: string): Promise<ProtocolT[]> {
  const rows = await protocolSelect(q)
    .where('p.organization_id', '=', orgId)
    .where('p.species', '=', sql<string>`lower(${species})`)
    .where('p.active', '=', true)
    .orderBy('p.id')
    .execute();
  return rows.map(withKind);
}
/** The species of the organization's active protocols. */
export async function activeProtocolSpecies(q: Queryable, orgId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('medical_protocols')
    .select('species')
    .distinct()
    .where('organization_id', '=', orgId)
    .where('active', '=', true)
    .execute();
  return rows.map((r) => r.species);
}
export async function protocolNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  const row = await kx(q)
    .selectFrom('medical_protocols')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where(sql`lower(name)`, '=', sql`lower(${name})`)
    .where('id', '<>', exceptId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}
export async function insertProtocol(q: Queryable, orgId: string, p: ProtocolFields): Promise<string> {
  const id = newId('mpr');
  await kx(q)
    .insertInto('medical_protocols')
    .values({
      organization_id: orgId,
      id,
      name: p.name,
      species: p.species,
      item_id: p.item_id,
      start_age_weeks: p.start_age_weeks,
      interval_days: p.interval_days,
      doses: p.doses,
      stop_age_weeks: p.stop_age_weeks,
      active: p.active,
    })
    .execute();
  return id;
}
export async function updateProtocol(q: Queryable, orgId: string, id: string, p: ProtocolFields) {
  await kx(q)
    .updateTable('medical_protocols')
    .set({
      name: p.name,
      species: p.species,
      item_id: p.item_id,
      start_age_weeks: p.start_age_weeks,
      interval_days: p.interval_days,
      doses: p.doses,
      stop_age_weeks: p.stop_age_weeks,
      active: p.active,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function protocolUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('medical_due')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', orgId)
    .where('protocol_id', '=', id)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteProtocol(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('medical_protocols').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// ---- due items ----
const DUE_COLS = [
  'd.id',
  'd.animal_id',
  'd.item_id',
  'i.name as item_name',
  'd.kind',
  'd.protocol_id',
  'd.dose_number',
  'd.due_on',
  iso<'completed_at', string | null>('d.completed_at', 'completed_at'),
  'd.record_id',
  'd.from_record_id',
] as const;
const dueSelectOn = (k: Kysely<DB>) =>
  k
    .selectFrom('medical_due as d')
    .innerJoin('medical_items as i', (j) => j.onRef('i.organization_id', '=', 'd.organization_id').onRef('i.id', '=', 'd.item_id'))
    .select(DUE_COLS);
const dueSelect = (q: Queryable) => dueSelectOn(kx(q));
const toDue = (r: InferResult<ReturnType<typeof dueSelect>>[number]) => withKind(r);
export type DueItemRow = ReturnType<typeof toDue>;

export async function dueById(q: Queryable, orgId: string, animalId: string, id: string, lock = false) {
  let one = dueSelect(q).where('d.organization_id', '=', orgId).where('d.animal_id', '=', animalId).where('d.id', '=', id);
  if (lock) one = one.forUpdate('d');
  const row = await one.executeTakeFirst();
  return row ? toDue(row) : null;
}
/** An animal's open due items (its medical record page): built and compiled once, prepared per connection. */
const openDueOf = statement('medical_open_due_of_animal', (v: { orgId: string; animalId: string }) =>
  dueSelectOn(compiler)
    .where('d.organization_id', '=', v.orgId)
    .where('d.animal_id', '=', v.animalId)
    .where('d.completed_at', 'is', null)
    .orderBy('d.due_on')
    .orderBy('d.id')
    .limit(200),
);
export async function openDueOfAnimal(q: Queryable, orgId: string, animalId: string) {
  return (await openDueOf(q, { orgId, animalId })).map(toDue);
}
export async function dueOfAnimal(q: Queryable, orgId: string, animalId: string, openOnly: boolean, limit: number, offset: number) {
  let list = dueSelect(q).where('d.organization_id', '=', orgId).where('d.animal_id', '=', animalId);
  if (openOnly) list = list.where('d.completed_at', 'is', null);
  const rows = await list
    .orderBy('d.due_on')
    .orderBy('d.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toDue);
}
export async function dueFromRecord(q: Queryable, orgId: string, recordId: string) {
  const rows = await dueSelect(q)
    .where('d.organization_id', '=', orgId)
    .where('d.from_record_id', '=', recordId)
    .orderBy('d.due_on')
    .orderBy('d.id')
    .execute();
  return rows.map(toDue);
}
export type DueInsert = Omit<DueItemRow, 'id' | 'item_name' | 'completed_at' | 'record_id'>;
/** Inserts a due item; a protocol's dose that already exists for the animal is skipped (null). */
export async function insertDue(q: Queryable, orgId: string, d: DueInsert): Promise<string | null> {
  const id = newId('mdu');
  const { rows } = await sql<Pick<Selectable<DB['medical_due']>, 'id'>>`INSERT INTO medical_due
       (organization_id, id, animal_id, item_id, kind, species, protocol_id, dose_number, due_on, from_record_id)
     SELECT ${orgId}, ${id}, ${d.animal_id}, ${d.item_id}, ${d.kind}, lower(a.species), ${d.protocol_id}, ${d.dose_number},
            ${d.due_on}, ${d.from_record_id}
       FROM animal_directory a WHERE a.organization_id = ${orgId} AND a.id = ${d.animal_id}
     ON CONFLICT (organization_id, animal_id, protocol_id, dose_number) WHERE protocol_id IS NOT NULL DO NOTHING
     RETURNING id`.execute(kx(q));
  return rows[0]?.id ?? null;
}
export async function dueByIds(q: Queryable, orgId: string, ids: string[]) {
  if (!ids.length) return [];
  const rows = await dueSelect(q)
    .where('d.organization_id', '=', orgId)
    .where(sql<boolean>`d.id = ANY(${ids}::text[])`)
    .orderBy('d.due_on')
    .orderBy('d.id')
    .execute();
  return rows.map(toDue);
}
export async function completeDue(q: Queryable, orgId: string, id: string, recordId: string) {
  await kx(q)
    .updateTable('medical_due')
    .set({ completed_at: sql`now()`, record_id: recordId })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function moveDue(q: Queryable, orgId: string, id: string, dueOn: string) {
  await kx(q).updateTable('medical_due').set({ due_on: dueOn }).where('organization_id', '=', orgId).where('id', '=', id).execute();
}
export async function deleteDue(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('medical_due').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
/** Undoes what a deleted record did: reopens the item it completed, drops open items it made, unlinks the rest. */
export async function detachRecord(q: Queryable, orgId: string, recordId: string) {
  await kx(q)
    .updateTable('medical_due')
    .set({ completed_at: null, record_id: null })
    .where('organization_id', '=', orgId)
    .where('record_id', '=', recordId)
    .execute();
  await kx(q)
    .deleteFrom('medical_due')
    .where('organization_id', '=', orgId)
    .where('from_record_id', '=', recordId)
    .where('completed_at', 'is', null)
    .execute();
  await kx(q)
    .updateTable('medical_due')
    .set({ from_record_id: null })
    .where('organization_id', '=', orgId)
    .where('from_record_id', '=', recordId)
    .execute();
}

/** Sets an animal's open due items aside (it left care) or brings them back (it came back). */
export async function setDueAside(q: Queryable, orgId: string, animalId: string, aside: boolean): Promise<void> {
  await kx(q)
    .updateTable('medical_due')
    .set({ set_aside: aside })
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('completed_at', 'is', null)
    .where('set_aside', '<>', aside)
    .execute();
}

export interface DueFilter {
  as_of: string;
  species?: string;
  location_id?: string;
  kind?: string;
}
const dueListSelect = (q: Queryable, orgId: string) =>
  dueSelect(q)
    .innerJoin('animal_directory as a', (j) => j.onRef('a.organization_id', '=', 'd.organization_id').onRef('a.id', '=', 'd.animal_id'))
    .select(['a.name as animal_name', 'a.species', 'a.location_id'])
    .$narrowType<{ animal_name: NotNull; species: NotNull }>()
    .where('d.organization_id', '=', orgId)
    .where('d.completed_at', 'is', null)
    .where('a.deleted_at', 'is', null);
/**
 * Open items due on or before `as_of` of animals in care (not deleted, status in care or on hold), oldest
 * due first. Walks the open-items index by date (items set aside when their animal left care are not in it); the
 * animal is read by its key.
 */
export async function listDue(q: Queryable, orgId: string, f: DueFilter, limit: number, offset: number) {
  let list = dueListSelect(q, orgId)
    .where('d.set_aside', '=', false)
    .where('d.due_on', '<=', f.as_of)
    .where('a.care_state', 'in', ['in_care', 'on_hold']);
  if (f.species !== undefined) list = list.where('d.species', '=', sql<string>`lower(${f.species})`);
  if (f.location_id !== undefined) list = list.where('a.location_id', '=', f.location_id);
  if (f.kind !== undefined) list = list.where('d.kind', '=', f.kind);
  const rows = await list
    .orderBy('d.due_on')
    .orderBy('d.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(withKind);
}
/** Open items due from `from` to `to` (dates), of animals in care (or of one animal, whatever its state). */
export async function dueBetween(q: Queryable, orgId: string, from: string, to: string, animalId: string | undefined, limit: number) {
  let list = dueListSelect(q, orgId).where('d.due_on', '>=', from).where('d.due_on', '<=', to);
  list =
    animalId === undefined
      ? list.where('a.care_state', 'in', ['in_care', 'on_hold']).where('d.set_aside', '=', false)
      : list.where('d.animal_id', '=', animalId);
  const rows = await list.orderBy('d.due_on').orderBy('d.id').limit(limit).execute();
  return rows.map(withKind);
}

// ---- records ----
export type RecordFields = Omit<RecordT, 'id' | 'animal_id' | 'due_item_id' | 'created_at' | 'updated_at'>;
/** The stored columns of a record a write sets. */
const recordValues = (r: RecordFields) => ({
  kind: r.kind,
  item_id: r.item_id,
  name: r.name,
  product: r.product,
  manufacturer: r.manufacturer,
  lot: r.lot,
  expires_on: r.expires_on,
  dose: r.dose,
  route: r.route,
  given_by: r.given_by,
  given_at: r.given_at,
  next_due_on: r.next_due_on,
  result: r.result,
  rabies_tag: r.rabies_tag,
  notes: r.notes,
});
const recordSelectOn = (k: Kysely<DB>) =>
  k
    .selectFrom('medical_records as r')
    .select([
      'r.id',
      'r.animal_id',
      'r.kind',
      'r.item_id',
      'r.name',
      'r.product',
      'r.manufacturer',
      'r.lot',
      'r.expires_on',
      'r.dose',
      'r.route',
      'r.given_by',
      iso('r.given_at', 'given_at'),
      'r.next_due_on',
      'r.result',
      'r.rabies_tag',
      'r.notes',
    ])
    .select((eb) =>
      eb
        .selectFrom('medical_due as d')
        .select('d.id')
        .whereRef('d.organization_id', '=', 'r.organization_id')
        .whereRef('d.record_id', '=', 'r.id')
        .limit(1)
        .as('due_item_id'),
    )
    .select([iso('r.created_at', 'created_at'), iso('r.updated_at', 'updated_at')]);
const recordSelect = (q: Queryable) => recordSelectOn(kx(q));
type RecordRow = InferResult<ReturnType<typeof recordSelect>>[number];
/**
 * The stored record is its wire shape: kind, route and result are held to their lists by check constraints, so the row
 * is only typed as such, not copied (a page of records was copied row by row).
 */
const toRecord = (r: RecordRow): RecordT =>
  r as Omit<RecordRow, 'kind' | 'route' | 'result'> & {
    kind: Kind;
    route: (typeof ROUTES)[number] | null;
    result: (typeof RESULTS)[number] | null;
  };

/** A page of an animal's records, newest given first (its medical record page): built and compiled once. */
const recordsOf = statement('medical_records_of_animal', (v: { orgId: string; animalId: string; limit: number; offset: number }) =>
  recordSelectOn(compiler)
    .where('r.organization_id', '=', v.orgId)
    .where('r.animal_id', '=', v.animalId)
    .orderBy('r.given_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(v.limit)
    .offset(v.offset),
);
export async function recordsOfAnimal(q: Queryable, orgId: string, animalId: string, limit: number, offset: number) {
  return (await recordsOf(q, { orgId, animalId, limit: limit + 1, offset })).map(toRecord);
}
export async function recordById(q: Queryable, orgId: string, animalId: string, id: string) {
  const row = await recordSelect(q)
    .where('r.organization_id', '=', orgId)
    .where('r.animal_id', '=', animalId)
    .where('r.id', '=', id)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}
export async function recordsByIds(q: Queryable, orgId: string, ids: string[]) {
  const rows = await recordSelect(q)
    .where('r.organization_id', '=', orgId)
    .where(sql<boolean>`r.id = ANY(${ids}::text[])`)
    .orderBy('r.given_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
  return rows.map(toRecord);
}
export async function insertRecord(q: Queryable, orgId: string, animalId: string, r: RecordFields): Promise<string> {
  const id = newId('mrc');
  await kx(q)
    .insertInto('medical_records')
    .values({ organization_id: orgId, id, animal_id: animalId, ...recordValues(r) })
    .execute();
  return id;
}
export async function updateRecord(q: Queryable, orgId: string, id: string, r: RecordFields) {
  await kx(q)
    .updateTable('medical_records')
    .set({ ...recordValues(r), updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteRecord(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('medical_records').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
/** The earliest date of the animal's records of altering items, in the zone; null when none. */
export async function earliestAltering(q: Queryable, orgId: string, animalId: string, zone: string) {
  const row = await kx(q)
    .selectFrom('medical_records as r')
    .innerJoin('medical_items as i', (j) => j.onRef('i.organization_id', '=', 'r.organization_id').onRef('i.id', '=', 'r.item_id'))
    .select(sql<string | null>`min((r.given_at AT TIME ZONE ${zone})::date)::text`.as('on'))
    .where('r.organization_id', '=', orgId)
    .where('r.animal_id', '=', animalId)
    .where('i.alters', '=', true)
    .executeTakeFirst();
  return row?.on ?? null;
}

// ---- calendar feeds ----
export async function feedToken(q: Queryable, orgId: string, animalId: string) {
  const row = await kx(q)
    .selectFrom('animal_calendar_feeds')
    .select(['token', iso('created_at', 'created_at')])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .executeTakeFirst();
  return row ?? null;
}
export async function setFeedToken(q: Queryable, orgId: string, animalId: string, token: string) {
  return kx(q)
    .insertInto('animal_calendar_feeds')
    .values({ organization_id: orgId, animal_id: animalId, token })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'animal_id']).doUpdateSet({ token: (eb) => eb.ref('excluded.token'), created_at: sql`now()` }),
    )
    .returning(['token', iso('created_at', 'created_at')])
    .executeTakeFirstOrThrow();
}
export async function feedByToken(q: Queryable, orgId: string, token: string) {
  const row = await kx(q)
    .selectFrom('animal_calendar_feeds')
    .select('animal_id')
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .executeTakeFirst();
  return row ?? null;
}
