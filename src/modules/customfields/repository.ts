import { Where } from '../../platform/db/sql.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { OrgCache } from '../../platform/org-cache.ts';
import type { Static } from '../../platform/schema.ts';
import type { CustomFieldDefinition } from './routes.ts';

export const ENTITY_TYPES = ['animal', 'location_unit', 'adoption_application', 'person', 'shift_schedule', 'campaign'] as const;
/**
 * Records whose custom fields were free-form before they could be defined: their values are simple (a string, number
 * or boolean), so their definitions take the scalar types only.
 */
export const SCALAR_ENTITIES: readonly CustomFieldEntity[] = ['shift_schedule', 'campaign'];
export const SCALAR_TYPES: readonly FieldType[] = ['text', 'textarea', 'number', 'boolean', 'date', 'select', 'phone', 'email', 'url'];
export type CustomFieldEntity = (typeof ENTITY_TYPES)[number];
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'boolean',
  'date',
  'select',
  'multiselect',
  'phone',
  'email',
  'url',
  'country_state',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A definition as stored is its wire shape. */
export type DefinitionRow = Static<typeof CustomFieldDefinition>;
const COLS = 'id, entity_type, field_key, field_label, field_type, options, required, sort_order, retired_at, created_at, updated_at';
const ORDER = 'ORDER BY entity_type, sort_order, field_key';

const definitionCache = new OrgCache<readonly DefinitionRow[]>();

/**
 * The definitions of an entity type, cached per organization (src/platform/org-cache.ts): every write of a
 * record with custom fields checks against them. Each route that changes a definition calls `ctx.changed()`
 * after its commit. Not for a transaction that changes definitions itself (it would cache what it has not
 * committed): read them with `uncachedDefinitionsFor` there.
 */
export async function definitionsFor(q: Queryable, orgId: string, entity: CustomFieldEntity): Promise<readonly DefinitionRow[]> {
  return definitionCache.get(`${orgId}:${entity}`, () => uncachedDefinitionsFor(q, orgId, entity));
}
export async function uncachedDefinitionsFor(q: Queryable, orgId: string, entity: CustomFieldEntity): Promise<DefinitionRow[]> {
  return q.prepared<DefinitionRow>(
    'cfd_for_entity',
    `SELECT ${COLS} FROM custom_field_definitions WHERE organization_id = $1 AND entity_type = $2 ${ORDER}`,
    [orgId, entity],
  );
}
export async function listDefinitions(
  q: Queryable,
  orgId: string,
  f: { entity_type?: string; entity_types?: readonly string[]; include_retired?: boolean },
) {
  const w = new Where(orgId);
  if (f.entity_type) w.eq('entity_type', f.entity_type);
  if (f.entity_types) w.and((p) => `entity_type = ANY(${p(f.entity_types)}::text[])`);
  if (!f.include_retired) w.and('retired_at IS NULL');
  return q.query<DefinitionRow>(`SELECT ${COLS} FROM custom_field_definitions WHERE ${w.sql} ${ORDER}`, w.params);
}
/** One definition; with `entities`, only of those entity types (an area's route reaches its own records' fields only). */
export async function getDefinition(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
  entities?: readonly string[],
): Promise<DefinitionRow | null> {
  return (
    (
      await q.query<DefinitionRow>(
        `SELECT ${COLS} FROM custom_field_definitions WHERE organization_id = $1 AND id = $2
           AND ($3::text[] IS NULL OR entity_type = ANY($3::text[]))${lock ? ' FOR UPDATE' : ''}`,
        [orgId, id, entities ?? null],
      )
    )[0] ?? null
  );
}
export async function keyTaken(q: Queryable, orgId: string, entity: string, key: string): Promise<boolean> {
  return (
    (
      await q.query('SELECT 1 FROM custom_field_definitions WHERE organization_id = $1 AND entity_type = $2 AND field_key = $3', [
        orgId,
        entity,
        key,
      ])
    ).length > 0
  );
}
export async function nextSortOrder(q: Queryable, orgId: string, entity: string): Promise<number> {
  const rows = await q.query<{ m: number | null }>(
    'SELECT max(sort_order) AS m FROM custom_field_definitions WHERE organization_id = $1 AND entity_type = $2',
    [orgId, entity],
  );
  return (rows[0]?.m ?? 0) + 10;
}
export async function insertDefinition(
  q: Queryable,
  orgId: string,
  d: Omit<DefinitionRow, 'retired_at' | 'created_at' | 'updated_at'>,
): Promise<DefinitionRow | null> {
  const rows = await q.query<DefinitionRow>(
    `INSERT INTO custom_field_definitions (organization_id, id, entity_type, field_key, field_label, field_type, options,
      required, sort_order)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT DO NOTHING RETURNING ${COLS}`,
    [orgId, d.id, d.entity_type, d.field_key, d.field_label, d.field_type, JSON.stringify(d.options), d.required, d.sort_order],
  );
  return rows[0] ?? null;
}
export async function updateDefinition(
  q: Queryable,
  orgId: string,
  id: string,
  p: { field_label?: string; options?: string[]; required?: boolean; sort_order?: number; retired?: boolean },
) {
  const rows = await q.query<DefinitionRow>(
    `UPDATE custom_field_definitions SET field_label = COALESCE($3, field_label), options = COALESCE($4::jsonb, options),
       required = COALESCE($5, required), sort_order = COALESCE($6, sort_order),
       retired_at = CASE WHEN $7::boolean IS NULL THEN retired_at WHEN $7 THEN COALESCE(retired_at, now()) ELSE NULL END, updated_at = now()
     WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [
      orgId,
      id,
      p.field_label ?? null,
      p.options ? JSON.stringify(p.options) : null,
      p.required ?? null,
      p.sort_order ?? null,
      p.retired ?? null,
    ],
  );
  return rows[0] ?? null;
}
