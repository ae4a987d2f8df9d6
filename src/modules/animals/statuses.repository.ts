import { first, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { kx, runPrepared, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

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

const COLS = ['id', 'name', 'care_state', 'sort_order', 'created_at', 'updated_at'] as const;
/** A status as read: the generated row's columns, its care state one of CARE_STATES (the table's check). */
export type StatusRow = Omit<Pick<Selectable<DB['animal_statuses']>, (typeof COLS)[number]>, 'care_state'> & { care_state: CareState };

const statuses = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('animal_statuses').select(COLS).$narrowType<{ care_state: CareState }>().where('organization_id', '=', orgId);

export async function insertDefaultStatuses(q: Queryable, orgId: string): Promise<void> {
  let order = 0;
  for (const [name, care] of DEFAULT_STATUSES) {
    order += 10;
    await kx(q)
      .insertInto('animal_statuses')
      .values({ organization_id: orgId, id: newId('sts'), name, care_state: care, sort_order: order })
      .execute();
  }
}
export async function listStatuses(q: Queryable, orgId: string) {
  return runPrepared(q, 'statuses_list', statuses(q, orgId).orderBy('sort_order').orderBy('name'));
}
export async function statusById(q: Queryable, orgId: string, id: string) {
  return (await statuses(q, orgId).where('id', '=', id).executeTakeFirst()) ?? null;
}
/** Case-sensitive, as the spec requires. */
export async function statusesByNames(q: Queryable, orgId: string, names: string[]) {
  return runPrepared(q, 'statuses_by_names', statuses(q, orgId).where('name', '=', sql<string>`ANY(${names}::text[])`));
}
export async function insertStatus(q: Queryable, orgId: string, s: { name: string; care_state: CareState; sort_order: number }) {
  return first(
    await kx(q)
      .insertInto('animal_statuses')
      .values({ organization_id: orgId, id: newId('sts'), name: s.name, care_state: s.care_state, sort_order: s.sort_order })
      .returning(COLS)
      .$narrowType<{ care_state: CareState }>()
      .execute(),
  );
}
export async function updateStatus(
  q: Queryable,
  orgId: string,
  id: string,
  s: { name?: string; care_state?: CareState; sort_order?: number },
) {
  return (
    (await kx(q)
      .updateTable('animal_statuses')
      .set({
        name: sql`COALESCE(${s.name ?? null}, name)`,
        care_state: sql`COALESCE(${s.care_state ?? null}, care_state)`,
        sort_order: sql`COALESCE(${s.sort_order ?? null}, sort_order)`,
        updated_at: sql`now()`,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .returning(COLS)
      .$narrowType<{ care_state: CareState }>()
      .executeTakeFirst()) ?? null
  );
}
export async function animalsWithStatus(q: Queryable, orgId: string, id: string) {
  const row = await kx(q)
    .selectFrom('animals')
    .select((e) => e.fn.countAll<string>().as('n'))
    .where('organization_id', '=', orgId)
    .where('status_id', '=', id)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteStatus(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('animal_statuses').where('organization_id', '=', orgId).where('id', '=', id).execute();
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
