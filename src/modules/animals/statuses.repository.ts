import { first, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';

export const CARE_STATES = ['in_care', 'on_hold', 'completed', 'not_in_care'] as const;
export type CareState = (typeof CARE_STATES)[number];

export const DEFAULT_STATUSES: [string, CareState][] = [
  ['Intake', 'in_care'],
  ['Available', 'in_care'],
  ['Medical Hold', 'on_hold'],
  ['Adoption Pending', 'on_hold'],
  ['Adopted', 'completed'],
  ['Transferred Out', 'completed'],
  ['Returned to Owner', 'completed'],
  ['Deceased', 'completed'],
  ['Courtesy Listing', 'not_in_care'],
];

export interface StatusRow {
  id: string;
  name: string;
  care_state: CareState;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}
const COLS = 'id, name, care_state, sort_order, created_at, updated_at';

export async function insertDefaultStatuses(q: Queryable, orgId: string): Promise<void> {
  let order = 0;
  for (const [name, care] of DEFAULT_STATUSES) {
    order += 10;
    await q.query('INSERT INTO animal_statuses (organization_id, id, name, care_state, sort_order) VALUES ($1,$2,$3,$4,$5)', [
      orgId,
      newId('sts'),
      name,
      care,
      order,
    ]);
  }
}
export async function listStatuses(q: Queryable, orgId: string) {
  return q.prepared<StatusRow>(
    'statuses_list',
    `SELECT ${COLS} FROM animal_statuses WHERE organization_id = $1 ORDER BY sort_order, name`,
    [orgId],
  );
}
export async function statusById(q: Queryable, orgId: string, id: string) {
  return (await q.query<StatusRow>(`SELECT ${COLS} FROM animal_statuses WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
/** Case-sensitive, as the spec requires. */
export async function statusesByNames(q: Queryable, orgId: string, names: string[]) {
  return q.prepared<StatusRow>(
    'statuses_by_names',
    `SELECT ${COLS} FROM animal_statuses WHERE organization_id = $1 AND name = ANY($2::text[])`,
    [orgId, names],
  );
}
export async function insertStatus(q: Queryable, orgId: string, s: { name: string; care_state: CareState; sort_order: number }) {
  return first(
    await q.query<StatusRow>(
      `INSERT INTO animal_statuses (organization_id, id, name, care_state, sort_order) VALUES ($1,$2,$3,$4,$5) RETURNING ${COLS}`,
      [orgId, newId('sts'), s.name, s.care_state, s.sort_order],
    ),
  );
}
export async function updateStatus(
  q: Queryable,
  orgId: string,
  id: string,
  s: { name?: string; care_state?: CareState; sort_order?: number },
) {
  return (
    (
      await q.query<StatusRow>(
        `UPDATE animal_statuses SET name = COALESCE($3, name), care_state = COALESCE($4, care_state), sort_order = COALESCE($5,
          sort_order), updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
        [orgId, id, s.name ?? null, s.care_state ?? null, s.sort_order ?? null],
      )
    )[0] ?? null
  );
}
export async function animalsWithStatus(q: Queryable, orgId: string, id: string) {
  const rows = await q.query<{ n: string }>('SELECT count(*) AS n FROM animals WHERE organization_id = $1 AND status_id = $2', [orgId, id]);
  return Number(rows[0]?.n ?? 0);
}
export async function deleteStatus(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM animal_statuses WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

const TTL_MS = 30_000;
const cache = new Map<string, { at: number; byId: Map<string, StatusRow> }>();

/**
 * The organization's statuses by id, cached briefly: every animal read needs its status's name
 * and care state. Status changes clear it in every process (ctx.changed()).
 */
export async function statusMap(q: Queryable, orgId: string, mustHave?: string): Promise<Map<string, StatusRow>> {
  const hit = cache.get(orgId);
  if (hit && Date.now() - hit.at < TTL_MS && (!mustHave || hit.byId.has(mustHave))) return hit.byId;
  const rows = await listStatuses(q, orgId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  cache.set(orgId, { at: Date.now(), byId });
  return byId;
}
export function clearStatusCache(): void {
  cache.clear();
}
