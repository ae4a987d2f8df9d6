import { shapeName, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import type { Kind } from './catalogue.ts';
import { liveAnimalNameJoinSql } from '../animals/public.ts';

export interface StayRow {
  id: string;
  animal_id: string;
  intake_at: Date;
  intake_type: string;
  intake_subtype_id: string | null;
  intake_subtype: string | null;
  source_person_id: string | null;
  source_organization: string | null;
  source_partner_id: string | null;
  found_at: string | null;
  condition: string;
  age_weeks: number | null;
  age_estimated: boolean;
  adoption_return: boolean;
  intake_notes: string | null;
  intake_by: string | null;
  outcome_at: Date | null;
  outcome_type: string | null;
  outcome_subtype_id: string | null;
  outcome_subtype: string | null;
  destination_person_id: string | null;
  destination_organization: string | null;
  destination_partner_id: string | null;
  outcome_reason: string | null;
  outcome_notes: string | null;
  outcome_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const STAY_SELECT = `SELECT s.id, s.animal_id, s.intake_at, s.intake_type, s.intake_subtype_id, si.name AS intake_subtype,
  s.source_person_id,
  s.source_organization, s.source_partner_id, s.destination_partner_id,
  s.found_at, s.condition, s.age_weeks, s.age_estimated, s.adoption_return, s.intake_notes, s.intake_by,
  s.outcome_at, s.outcome_type, s.outcome_subtype_id, so.name AS outcome_subtype, s.destination_person_id, s.destination_organization,
  s.outcome_reason, s.outcome_notes, s.outcome_by, s.created_at, s.updated_at
  FROM animal_stays s
  LEFT JOIN stay_subtypes si ON si.organization_id = s.organization_id AND si.id = s.intake_subtype_id
  LEFT JOIN stay_subtypes so ON so.organization_id = s.organization_id AND so.id = s.outcome_subtype_id`;

export async function getStay(q: Queryable, orgId: string, id: string, lock = false): Promise<StayRow | null> {
  const rows = await q.query<StayRow>(`${STAY_SELECT} WHERE s.organization_id = $1 AND s.id = $2${lock ? ' FOR UPDATE OF s' : ''}`, [
    orgId,
    id,
  ]);
  return rows[0] ?? null;
}

/** An animal's stays, newest intake first; `limit` null reads them all. */
export async function staysOf(q: Queryable, orgId: string, animalId: string, limit: number | null, offset = 0): Promise<StayRow[]> {
  return q.query<StayRow>(
    `${STAY_SELECT} WHERE s.organization_id = $1 AND s.animal_id = $2 ORDER BY s.intake_at DESC, s.id DESC LIMIT $3 OFFSET $4`,
    [orgId, animalId, limit, offset],
  );
}

/**
 * The organization's stays whose intake (kind `intake`), outcome (kind `outcome`) or either (no kind) happened in
 * [from, to), of animals not deleted, ordered by that moment (by the intake without a kind), then id; one row more than `limit`.
 */
export async function staysBetween(
  q: Queryable,
  orgId: string,
  f: { from: string | null; to: string | null; kind: Kind | null },
  limit: number,
  offset: number,
): Promise<(StayRow & { animal_name: string; animal_species: string })[]> {
  const inRange = (col: string) => `(${col} >= $2::timestamptz OR $2 IS NULL) AND (${col} < $3::timestamptz OR $3 IS NULL)`;
  const where =
    f.kind === 'intake'
      ? inRange('s.intake_at')
      : f.kind === 'outcome'
        ? `s.outcome_at IS NOT NULL AND ${inRange('s.outcome_at')}`
        : `((${inRange('s.intake_at')}) OR (s.outcome_at IS NOT NULL AND ${inRange('s.outcome_at')}))`;
  const order = f.kind === 'outcome' ? 's.outcome_at' : 's.intake_at';
  // The animal's name and species come with each row (the live animal joined), in the same prepared statement.
  const columns = ', an.name AS animal_name, an.species AS animal_species\n  FROM animal_stays s';
  const sql = `${STAY_SELECT.replace('\n  FROM animal_stays s', columns)}
     ${liveAnimalNameJoinSql('s.organization_id', 's.animal_id', 'an')}
     WHERE s.organization_id = $1 AND ${where}
     ORDER BY ${order}, s.id LIMIT $4 OFFSET $5`;
  return q.prepared(shapeName('stays_between', sql), sql, [orgId, f.from, f.to, limit + 1, offset]);
}

/** The animal's most recent stay (open or closed), or null. */
export async function latestStay(q: Queryable, orgId: string, animalId: string): Promise<StayRow | null> {
  return (await staysOf(q, orgId, animalId, 1))[0] ?? null;
}

export interface IntakeInsert {
  animal_id: string;
  intake_at: string;
  intake_type: string;
  intake_subtype_id: string | null;
  source_person_id: string | null;
  source_organization: string | null;
  /** A partner on file (partners module); optional for callers that name none. */
  source_partner_id?: string | null;
  found_at: string | null;
  condition: string;
  age_weeks: number | null;
  age_estimated: boolean;
  adoption_return: boolean;
  intake_notes: string | null;
  intake_by: string | null;
}
export async function insertStay(q: Queryable, orgId: string, s: IntakeInsert): Promise<string> {
  const id = newId('sty');
  await q.query(
    `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, intake_subtype_id, source_person_id,
      source_organization,
      found_at, condition, age_weeks, age_estimated, adoption_return, intake_notes, intake_by, source_partner_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)`,
    [
      orgId,
      id,
      s.animal_id,
      s.intake_at,
      s.intake_type,
      s.intake_subtype_id,
      s.source_person_id,
      s.source_organization,
      s.found_at,
      s.condition,
      s.age_weeks,
      s.age_estimated,
      s.adoption_return,
      s.intake_notes,
      s.intake_by,
      s.source_partner_id ?? null,
    ],
  );
  return id;
}

export interface OutcomeUpdate {
  outcome_at: string;
  outcome_type: string;
  outcome_subtype_id: string | null;
  destination_person_id: string | null;
  destination_organization: string | null;
  /** A partner on file (partners module); optional for callers that name none. */
  destination_partner_id?: string | null;
  outcome_reason: string | null;
  outcome_notes: string | null;
  outcome_by: string | null;
}
/** Closes the stay if it is still open; false when another request closed it first. */
export async function closeStay(q: Queryable, orgId: string, id: string, o: OutcomeUpdate): Promise<boolean> {
  const rows = await q.query(
    `UPDATE animal_stays SET outcome_at = $3, outcome_type = $4, outcome_subtype_id = $5, destination_person_id = $6,
      destination_organization = $7, outcome_reason = $8, outcome_notes = $9, outcome_by = $10, destination_partner_id = $11,
      updated_at = now()
     WHERE organization_id = $1 AND id = $2 AND outcome_at IS NULL RETURNING id`,
    [
      orgId,
      id,
      o.outcome_at,
      o.outcome_type,
      o.outcome_subtype_id,
      o.destination_person_id,
      o.destination_organization,
      o.outcome_reason,
      o.outcome_notes,
      o.outcome_by,
      o.destination_partner_id ?? null,
    ],
  );
  return rows.length > 0;
}

// Subtypes.
export interface SubtypeRow {
  id: string;
  kind: Kind;
  name: string;
  category: string;
  retired: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}
const SUBTYPE_COLS = 'id, kind, name, category, retired, sort_order, created_at, updated_at';

export async function listSubtypes(
  q: Queryable,
  orgId: string,
  f: { kind?: Kind; include_retired?: boolean },
  limit: number,
  offset: number,
): Promise<SubtypeRow[]> {
  return q.query<SubtypeRow>(
    `SELECT ${SUBTYPE_COLS} FROM stay_subtypes WHERE organization_id = $1 AND ($2::text IS NULL OR kind = $2) AND ($3 OR NOT retired)
     ORDER BY kind, sort_order, lower(name), id LIMIT $4 OFFSET $5`,
    [orgId, f.kind ?? null, f.include_retired ?? false, limit, offset],
  );
}
export async function getSubtype(q: Queryable, orgId: string, id: string): Promise<SubtypeRow | null> {
  return (
    (await q.query<SubtypeRow>(`SELECT ${SUBTYPE_COLS} FROM stay_subtypes WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null
  );
}
export async function subtypeByName(q: Queryable, orgId: string, kind: Kind, name: string): Promise<SubtypeRow | null> {
  return (
    (
      await q.query<SubtypeRow>(
        `SELECT ${SUBTYPE_COLS} FROM stay_subtypes WHERE organization_id = $1 AND kind = $2 AND lower(name) = lower($3)`,
        [orgId, kind, name],
      )
    )[0] ?? null
  );
}
export async function maxSubtypeOrder(q: Queryable, orgId: string, kind: Kind): Promise<number> {
  const rows = await q.query<{ m: number | null }>(
    'SELECT max(sort_order) AS m FROM stay_subtypes WHERE organization_id = $1 AND kind = $2',
    [orgId, kind],
  );
  return rows[0]?.m ?? 0;
}
export async function insertSubtype(
  q: Queryable,
  orgId: string,
  s: { kind: Kind; name: string; category: string; sort_order: number },
): Promise<SubtypeRow> {
  const rows = await q.query<SubtypeRow>(
    `INSERT INTO stay_subtypes (organization_id, id, kind, name, category, sort_order) VALUES ($1,$2,$3,$4,$5,$6) RETURNING ` +
      `${SUBTYPE_COLS}`,
    [orgId, newId('sst'), s.kind, s.name, s.category, s.sort_order],
  );
  const row = rows[0];
  if (!row) throw new Error('subtype insert returned nothing');
  return row;
}
export async function updateSubtype(
  q: Queryable,
  orgId: string,
  id: string,
  s: { name?: string; category?: string; retired?: boolean; sort_order?: number },
): Promise<SubtypeRow | null> {
  const rows = await q.query<SubtypeRow>(
    `UPDATE stay_subtypes SET name = COALESCE($3, name), category = COALESCE($4, category), retired = COALESCE($5, retired),
      sort_order = COALESCE($6, sort_order), updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${SUBTYPE_COLS}`,
    [orgId, id, s.name ?? null, s.category ?? null, s.retired ?? null, s.sort_order ?? null],
  );
  return rows[0] ?? null;
}
export async function subtypeUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const rows = await q.query<{ n: string }>(
    'SELECT count(*) AS n FROM animal_stays WHERE organization_id = $1 AND (intake_subtype_id = $2 OR outcome_subtype_id = $2)',
    [orgId, id],
  );
  return Number(rows[0]?.n ?? 0);
}
export async function deleteSubtype(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM stay_subtypes WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// Status mapping.
export interface MapRow {
  kind: Kind;
  category: string;
  status_id: string | null;
}
export async function statusMapRows(q: Queryable, orgId: string): Promise<MapRow[]> {
  return q.query<MapRow>('SELECT kind, category, status_id FROM stay_status_map WHERE organization_id = $1', [orgId]);
}
export async function setMapping(q: Queryable, orgId: string, kind: Kind, category: string, statusId: string | null): Promise<void> {
  await q.query(
    `INSERT INTO stay_status_map (organization_id, kind, category, status_id) VALUES ($1,$2,$3,$4)
     ON CONFLICT (organization_id, kind, category) DO UPDATE SET status_id = EXCLUDED.status_id, updated_at = now()`,
    [orgId, kind, category, statusId],
  );
}

/** Claims the one-time writing of an organization's defaults: true for the one transaction that gets to write them. */
export async function claimDefaults(q: Queryable, orgId: string): Promise<boolean> {
  const rows = await q.query(
    'INSERT INTO stay_defaults_seeded (organization_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING organization_id',
    [orgId],
  );
  return rows.length > 0;
}
export async function defaultsWritten(q: Queryable, orgId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM stay_defaults_seeded WHERE organization_id = $1', [orgId])).length > 0;
}
