import { first, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import type { Static } from '../../platform/schema.ts';
import type * as S from './schemas.ts';
import type { Kind } from './schemas.ts';

/** The one row a statement returns (an INSERT ... RETURNING, a read of a row just written). */
export const one = <T>(rows: readonly T[]): T => first(rows);

const ISO = (col: string, as = col.split('.').pop() ?? col) =>
  `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

// ---- catalogue ----
export type ItemRow = Static<typeof S.Item>;
const ITEM_COLS = `id, kind, name, species, default_product, default_manufacturer, alters, ${ISO('created_at')}, ${ISO('updated_at')}`;

export async function listItems(q: Queryable, orgId: string, f: { kind?: string; species?: string }, limit: number, offset: number) {
  return q.query<ItemRow>(
    `SELECT ${ITEM_COLS} FROM medical_items WHERE organization_id = $1 AND ($2::text IS NULL OR kind = $2)
        AND ($3::text IS NULL OR species = '{}' OR lower($3) = ANY(species))
      ORDER BY kind, lower(name), id LIMIT $4 OFFSET $5`,
    [orgId, f.kind ?? null, f.species ?? null, limit + 1, offset],
  );
}
export async function itemById(q: Queryable, orgId: string, id: string) {
  return (await q.query<ItemRow>(`SELECT ${ITEM_COLS} FROM medical_items WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
export async function itemNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  const rows = await q.query('SELECT 1 FROM medical_items WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3', [
    orgId,
    name,
    exceptId ?? '',
  ]);
  return rows.length > 0;
}
export async function insertItem(q: Queryable, orgId: string, i: Omit<ItemRow, 'id' | 'created_at' | 'updated_at'>) {
  const rows = await q.query<ItemRow>(
    `INSERT INTO medical_items (organization_id, id, kind, name, species, default_product, default_manufacturer, alters)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING ${ITEM_COLS}`,
    [orgId, newId('mci'), i.kind, i.name, i.species, i.default_product, i.default_manufacturer, i.alters],
  );
  return one(rows);
}
export async function updateItem(q: Queryable, orgId: string, id: string, i: ItemRow) {
  const rows = await q.query<ItemRow>(
    `UPDATE medical_items SET name = $3, species = $4, default_product = $5, default_manufacturer = $6, alters = $7, updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${ITEM_COLS}`,
    [orgId, id, i.name, i.species, i.default_product, i.default_manufacturer, i.alters],
  );
  return one(rows);
}
/** How many protocols, records and due items name the item. */
export async function itemUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM medical_protocols WHERE organization_id = $1 AND item_id = $2)
          + (SELECT count(*) FROM medical_records WHERE organization_id = $1 AND item_id = $2)
          + (SELECT count(*) FROM medical_due WHERE organization_id = $1 AND item_id = $2) AS n`,
    [orgId, id],
  );
  return Number(rows[0]?.n ?? 0);
}
export async function deleteItem(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM medical_items WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// ---- protocols ----
export type ProtocolRow = Static<typeof S.Protocol>;
export type ProtocolFields = Omit<ProtocolRow, 'id' | 'item_name' | 'kind' | 'created_at' | 'updated_at'>;
const PROTOCOL_SELECT = `SELECT p.id, p.name, p.species, p.item_id, i.name AS item_name, i.kind, p.start_age_weeks, p.interval_days,
    p.doses,
    p.stop_age_weeks, p.active, ${ISO('p.created_at')}, ${ISO('p.updated_at')}
  FROM medical_protocols p JOIN medical_items i ON i.organization_id = p.organization_id AND i.id = p.item_id`;

export async function listProtocols(q: Queryable, orgId: string, f: { species?: string; active?: boolean }, limit: number, offset: number) {
  return q.query<ProtocolRow>(
    `${PROTOCOL_SELECT} WHERE p.organization_id = $1 AND ($2::text IS NULL OR p.species = lower($2))
        AND ($3::boolean IS NULL OR p.active = $3)
      ORDER BY p.species, lower(p.name), p.id LIMIT $4 OFFSET $5`,
    [orgId, f.species ?? null, f.active ?? null, limit + 1, offset],
  );
}
export async function protocolById(q: Queryable, orgId: string, id: string) {
  return (await q.query<ProtocolRow>(`${PROTOCOL_SELECT} WHERE p.organization_id = $1 AND p.id = $2`, [orgId, id]))[0] ?? null;
}
export async function activeProtocolsFor(q: Queryable, orgId: string, species: string) {
  return q.query<ProtocolRow>(`${PROTOCOL_SELECT} WHERE p.organization_id = $1 AND p.species = lower($2) AND p.active ORDER BY p.id`, [
    orgId,
    species,
  ]);
}
/** The species of the organization's active protocols. */
export async function activeProtocolSpecies(q: Queryable, orgId: string): Promise<string[]> {
  const rows = await q.query<{ species: string }>('SELECT DISTINCT species FROM medical_protocols WHERE organization_id = $1 AND active', [
    orgId,
  ]);
  return rows.map((r) => r.species);
}
export async function protocolNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  const rows = await q.query('SELECT 1 FROM medical_protocols WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3', [
    orgId,
    name,
    exceptId ?? '',
  ]);
  return rows.length > 0;
}
export async function insertProtocol(q: Queryable, orgId: string, p: ProtocolFields): Promise<string> {
  const id = newId('mpr');
  await q.query(
    `INSERT INTO medical_protocols
       (organization_id, id, name, species, item_id, start_age_weeks, interval_days, doses, stop_age_weeks, active)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [orgId, id, p.name, p.species, p.item_id, p.start_age_weeks, p.interval_days, p.doses, p.stop_age_weeks, p.active],
  );
  return id;
}
export async function updateProtocol(q: Queryable, orgId: string, id: string, p: ProtocolFields) {
  await q.query(
    `UPDATE medical_protocols SET name = $3, species = $4, item_id = $5, start_age_weeks = $6, interval_days = $7, doses = $8,
        stop_age_weeks = $9, active = $10, updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [orgId, id, p.name, p.species, p.item_id, p.start_age_weeks, p.interval_days, p.doses, p.stop_age_weeks, p.active],
  );
}
export async function protocolUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*) AS n FROM medical_due WHERE organization_id = $1 AND protocol_id = $2', [
    orgId,
    id,
  ]);
  return Number(rows[0]?.n ?? 0);
}
export async function deleteProtocol(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM medical_protocols WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// ---- due items ----
export interface DueItemRow {
  id: string;
  animal_id: string;
  item_id: string;
  item_name: string;
  kind: Kind;
  protocol_id: string | null;
  dose_number: number | null;
  due_on: string;
  completed_at: string | null;
  record_id: string | null;
  from_record_id: string | null;
}
const DUE_COLS = `d.id, d.animal_id, d.item_id, i.name AS item_name, d.kind, d.protocol_id, d.dose_number, d.due_on,
  ${ISO('d.completed_at')}, d.record_id, d.from_record_id`;
const DUE_SELECT = `SELECT ${DUE_COLS} FROM medical_due d
  JOIN medical_items i ON i.organization_id = d.organization_id AND i.id = d.item_id`;

export async function dueById(q: Queryable, orgId: string, animalId: string, id: string, lock = false) {
  const rows = await q.query<DueItemRow>(
    `${DUE_SELECT} WHERE d.organization_id = $1 AND d.animal_id = $2 AND d.id = $3${lock ? ' FOR UPDATE OF d' : ''}`,
    [orgId, animalId, id],
  );
  return rows[0] ?? null;
}
export async function openDueOfAnimal(q: Queryable, orgId: string, animalId: string) {
  return q.query<DueItemRow>(
    `${DUE_SELECT} WHERE d.organization_id = $1 AND d.animal_id = $2 AND d.completed_at IS NULL ORDER BY d.due_on, d.id LIMIT 200`,
    [orgId, animalId],
  );
}
export async function dueOfAnimal(q: Queryable, orgId: string, animalId: string, openOnly: boolean, limit: number, offset: number) {
  return q.query<DueItemRow>(
    `${DUE_SELECT} WHERE d.organization_id = $1 AND d.animal_id = $2 AND (NOT $3 OR d.completed_at IS NULL)
      ORDER BY d.due_on, d.id LIMIT $4 OFFSET $5`,
    [orgId, animalId, openOnly, limit + 1, offset],
  );
}
export async function dueFromRecord(q: Queryable, orgId: string, recordId: string) {
  return q.query<DueItemRow>(`${DUE_SELECT} WHERE d.organization_id = $1 AND d.from_record_id = $2 ORDER BY d.due_on, d.id`, [
    orgId,
    recordId,
  ]);
}
export interface DueInsert {
  animal_id: string;
  item_id: string;
  kind: Kind;
  protocol_id: string | null;
  dose_number: number | null;
  due_on: string;
  from_record_id: string | null;
}
/** Inserts a due item; a protocol's dose that already exists for the animal is skipped (null). */
export async function insertDue(q: Queryable, orgId: string, d: DueInsert): Promise<string | null> {
  const id = newId('mdu');
  const rows = await q.query<{ id: string }>(
    `INSERT INTO medical_due (organization_id, id, animal_id, item_id, kind, species, protocol_id, dose_number, due_on, from_record_id)
     SELECT $1, $2, $3, $4, $5, lower(a.species), $6, $7, $8, $9 FROM animal_directory a WHERE a.organization_id = $1 AND a.id = $3
     ON CONFLICT (organization_id, animal_id, protocol_id, dose_number) WHERE protocol_id IS NOT NULL DO NOTHING RETURNING id`,
    [orgId, id, d.animal_id, d.item_id, d.kind, d.protocol_id, d.dose_number, d.due_on, d.from_record_id],
  );
  return rows[0]?.id ?? null;
}
export async function dueByIds(q: Queryable, orgId: string, ids: string[]) {
  if (!ids.length) return [];
  return q.query<DueItemRow>(`${DUE_SELECT} WHERE d.organization_id = $1 AND d.id = ANY($2::text[]) ORDER BY d.due_on, d.id`, [orgId, ids]);
}
export async function completeDue(q: Queryable, orgId: string, id: string, recordId: string) {
  await q.query('UPDATE medical_due SET completed_at = now(), record_id = $3 WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
    recordId,
  ]);
}
export async function moveDue(q: Queryable, orgId: string, id: string, dueOn: string) {
  await q.query('UPDATE medical_due SET due_on = $3 WHERE organization_id = $1 AND id = $2', [orgId, id, dueOn]);
}
export async function deleteDue(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM medical_due WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
/** Undoes what a deleted record did: reopens the item it completed, drops open items it made, unlinks the rest. */
export async function detachRecord(q: Queryable, orgId: string, recordId: string) {
  await q.query('UPDATE medical_due SET completed_at = NULL, record_id = NULL WHERE organization_id = $1 AND record_id = $2', [
    orgId,
    recordId,
  ]);
  await q.query('DELETE FROM medical_due WHERE organization_id = $1 AND from_record_id = $2 AND completed_at IS NULL', [orgId, recordId]);
  await q.query('UPDATE medical_due SET from_record_id = NULL WHERE organization_id = $1 AND from_record_id = $2', [orgId, recordId]);
}

/** Sets an animal's open due items aside (it left care) or brings them back (it came back). */
export async function setDueAside(q: Queryable, orgId: string, animalId: string, aside: boolean): Promise<void> {
  await q.query(
    'UPDATE medical_due SET set_aside = $3 WHERE organization_id = $1 AND animal_id = $2 AND completed_at IS NULL AND set_aside <> $3',
    [orgId, animalId, aside],
  );
}

export interface DueFilter {
  as_of: string;
  species?: string;
  location_id?: string;
  kind?: string;
}
export type DueListRow = DueItemRow & { animal_name: string; species: string; location_id: string | null };
/**
 * Open items due on or before `as_of` of animals in care (not deleted, status in care or on hold), oldest
 * due first. Walks the open-items index by date (items set aside when their animal left care are not in it); the
 * animal is read by its key.
 */
export async function listDue(q: Queryable, orgId: string, f: DueFilter, limit: number, offset: number) {
  return q.query<DueListRow>(
    `SELECT ${DUE_COLS}, a.name AS animal_name, a.species, a.location_id
       FROM medical_due d
       JOIN medical_items i ON i.organization_id = d.organization_id AND i.id = d.item_id
       JOIN animal_directory a ON a.organization_id = d.organization_id AND a.id = d.animal_id
      WHERE d.organization_id = $1 AND d.completed_at IS NULL AND NOT d.set_aside AND d.due_on <= $2::date
        AND a.deleted_at IS NULL AND a.care_state IN ('in_care','on_hold')
        AND ($3::text IS NULL OR d.species = lower($3)) AND ($4::text IS NULL OR a.location_id = $4)
        AND ($5::text IS NULL OR d.kind = $5)
      ORDER BY d.due_on, d.id LIMIT $6 OFFSET $7`,
    [orgId, f.as_of, f.species ?? null, f.location_id ?? null, f.kind ?? null, limit + 1, offset],
  );
}
/** Open items due from `from` to `to` (dates), of animals in care (or of one animal, whatever its state). */
export async function dueBetween(q: Queryable, orgId: string, from: string, to: string, animalId: string | undefined, limit: number) {
  return q.query<DueListRow>(
    `SELECT ${DUE_COLS}, a.name AS animal_name, a.species, a.location_id
       FROM medical_due d
       JOIN medical_items i ON i.organization_id = d.organization_id AND i.id = d.item_id
       JOIN animal_directory a ON a.organization_id = d.organization_id AND a.id = d.animal_id
      WHERE d.organization_id = $1 AND d.completed_at IS NULL AND d.due_on BETWEEN $2::date AND $3::date AND a.deleted_at IS NULL
        AND (CASE WHEN $4::text IS NULL THEN a.care_state IN ('in_care','on_hold') AND NOT d.set_aside ELSE d.animal_id = $4 END)
      ORDER BY d.due_on, d.id LIMIT $5`,
    [orgId, from, to, animalId ?? null, limit],
  );
}

// ---- records ----
export type RecordRow = Static<typeof S.Record>;
export type RecordFields = Omit<RecordRow, 'id' | 'animal_id' | 'due_item_id' | 'created_at' | 'updated_at'>;
const RECORD_FIELDS = [
  'kind',
  'item_id',
  'name',
  'product',
  'manufacturer',
  'lot',
  'expires_on',
  'dose',
  'route',
  'given_by',
  'given_at',
  'next_due_on',
  'result',
  'rabies_tag',
  'notes',
] as const;
const RECORD_SELECT = `SELECT r.id, r.animal_id, r.kind, r.item_id, r.name, r.product, r.manufacturer, r.lot, r.expires_on, r.dose, r.route,
    r.given_by, ${ISO('r.given_at')}, r.next_due_on, r.result, r.rabies_tag, r.notes,
    (SELECT d.id FROM medical_due d WHERE d.organization_id = r.organization_id AND d.record_id = r.id LIMIT 1) AS due_item_id,
    ${ISO('r.created_at')}, ${ISO('r.updated_at')}
  FROM medical_records r`;

export async function recordsOfAnimal(q: Queryable, orgId: string, animalId: string, limit: number, offset: number) {
  return q.query<RecordRow>(
    `${RECORD_SELECT} WHERE r.organization_id = $1 AND r.animal_id = $2 ORDER BY r.given_at DESC, r.id DESC LIMIT $3 OFFSET $4`,
    [orgId, animalId, limit + 1, offset],
  );
}
export async function recordById(q: Queryable, orgId: string, animalId: string, id: string) {
  return (
    (
      await q.query<RecordRow>(`${RECORD_SELECT} WHERE r.organization_id = $1 AND r.animal_id = $2 AND r.id = $3`, [orgId, animalId, id])
    )[0] ?? null
  );
}
export async function recordsByIds(q: Queryable, orgId: string, ids: string[]) {
  return q.query<RecordRow>(
    `${RECORD_SELECT} WHERE r.organization_id = $1 AND r.id = ANY($2::text[]) ORDER BY r.given_at DESC, r.id DESC`,
    [orgId, ids],
  );
}
export async function insertRecord(q: Queryable, orgId: string, animalId: string, r: RecordFields): Promise<string> {
  const id = newId('mrc');
  const cols = RECORD_FIELDS.join(', ');
  const params = RECORD_FIELDS.map((_, i) => `$${i + 4}`).join(', ');
  await q.query(`INSERT INTO medical_records (organization_id, id, animal_id, ${cols}) VALUES ($1,$2,$3,${params})`, [
    orgId,
    id,
    animalId,
    ...RECORD_FIELDS.map((k) => r[k]),
  ]);
  return id;
}
export async function updateRecord(q: Queryable, orgId: string, id: string, r: RecordFields) {
  const sets = RECORD_FIELDS.map((k, i) => `${k} = $${i + 3}`).join(', ');
  await q.query(`UPDATE medical_records SET ${sets}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [
    orgId,
    id,
    ...RECORD_FIELDS.map((k) => r[k]),
  ]);
}
export async function deleteRecord(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM medical_records WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
/** The earliest date of the animal's records of altering items, in the zone; null when none. */
export async function earliestAltering(q: Queryable, orgId: string, animalId: string, zone: string) {
  const rows = await q.query<{ on: string | null }>(
    `SELECT min((r.given_at AT TIME ZONE $3)::date)::text AS on FROM medical_records r
       JOIN medical_items i ON i.organization_id = r.organization_id AND i.id = r.item_id
      WHERE r.organization_id = $1 AND r.animal_id = $2 AND i.alters`,
    [orgId, animalId, zone],
  );
  return rows[0]?.on ?? null;
}

// ---- calendar feeds ----
export async function feedToken(q: Queryable, orgId: string, animalId: string) {
  return (
    (
      await q.query<{ token: string; created_at: string }>(
        `SELECT token, ${ISO('created_at')} FROM animal_calendar_feeds WHERE organization_id = $1 AND animal_id = $2`,
        [orgId, animalId],
      )
    )[0] ?? null
  );
}
export async function setFeedToken(q: Queryable, orgId: string, animalId: string, token: string) {
  const rows = await q.query<{ token: string; created_at: string }>(
    `INSERT INTO animal_calendar_feeds (organization_id, animal_id, token) VALUES ($1,$2,$3)
     ON CONFLICT (organization_id, animal_id) DO UPDATE SET token = EXCLUDED.token, created_at = now()
     RETURNING token, ${ISO('created_at')}`,
    [orgId, animalId, token],
  );
  return one(rows);
}
export async function feedByToken(q: Queryable, orgId: string, token: string) {
  return (
    (
      await q.query<{ animal_id: string }>('SELECT animal_id FROM animal_calendar_feeds WHERE organization_id = $1 AND token = $2', [
        orgId,
        token,
      ])
    )[0] ?? null
  );
}
