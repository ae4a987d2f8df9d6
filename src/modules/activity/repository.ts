/** The audit journal's reads: every statement scoped by organization and narrowed to the areas a caller may read. */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type InferResult } from '../../platform/db/kysely.ts';
import { AREA_OF_ENTITY_SQL } from './areas.ts';
import type { ActivityQueryT, EntryT } from './schemas.ts';

const area = sql<string>`${sql.raw(AREA_OF_ENTITY_SQL)}`;
/** The organization's audit rows in the areas given, with the area each belongs to. */
function entries(q: Queryable, orgId: string, areas: readonly string[]) {
  return kx(q)
    .selectFrom('audit_log')
    .select(['id', 'created_at', 'actor', 'action', 'entity_type', 'entity_id', 'detail', area.as('area')])
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`(${area}) = ANY(${areas}::text[])`);
}
type Row = InferResult<ReturnType<typeof entries>>[number];

function toEntry(r: Row): EntryT {
  const d = r.detail as Record<string, unknown> | unknown[] | null;
  let fields: string[] = [];
  let changes: EntryT['changes'] = null;
  if (Array.isArray(d)) fields = d.filter((x): x is string => typeof x === 'string');
  else if (d && typeof d === 'object') {
    if (d.changes && typeof d.changes === 'object') {
      changes = d.changes as EntryT['changes'];
      fields = Object.keys(d.changes);
    } else if (Array.isArray(d.fields)) fields = (d.fields as unknown[]).filter((x): x is string => typeof x === 'string');
    else if (r.action === 'update') fields = Object.keys(d);
  }
  return {
    id: String(r.id),
    at: r.created_at,
    actor: r.actor,
    key_id: r.actor?.startsWith('key:') ? r.actor.slice(4) : null,
    action: r.action,
    area: r.area as EntryT['area'],
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    fields,
    changes,
    detail: r.detail,
  };
}

/** A page of the journal, newest first (one row more than the page, for `has_more`). */
export async function listActivity(q: Queryable, orgId: string, areas: readonly string[], f: ActivityQueryT): Promise<EntryT[]> {
  let list = entries(q, orgId, areas);
  if (f.entity_type !== undefined) list = list.where('entity_type', '=', f.entity_type);
  if (f.entity_id !== undefined) list = list.where('entity_id', '=', f.entity_id);
  if (f.person_id !== undefined) {
    const person = f.person_id;
    list = list.where(sql<boolean>`((entity_type = 'person' AND entity_id = ${person}) OR detail->>'person_id' = ${person})`);
  }
  if (f.area !== undefined) list = list.where(sql<boolean>`(${area}) = ${f.area}`);
  if (f.actor !== undefined) list = list.where('actor', '=', f.actor);
  if (f.from !== undefined) list = list.where('created_at', '>=', sql<Date>`${f.from}`);
  if (f.to !== undefined) list = list.where('created_at', '<', sql<Date>`${f.to}`);
  const rows = await list
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toEntry);
}

/** One entry, or undefined when it is not the organization's or not in an area the caller may read. */
export async function activityEntry(q: Queryable, orgId: string, areas: readonly string[], id: string): Promise<EntryT | undefined> {
  const row = await entries(q, orgId, areas).where('id', '=', id).executeTakeFirst();
  return row && toEntry(row);
}
