import type { Queryable } from '../../platform/db/db.ts';
import { kx, runPrepared, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { OrgCache } from '../../platform/org-cache.ts';
import type { Static } from '../../platform/schema.ts';
import type { CustomFieldDefinition } from './routes/custom-fields.ts';

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

/** A definition as answered: its wire shape, read from the generated row type. */
export type DefinitionRow = Static<typeof CustomFieldDefinition>;
const COLS = [
  'id',
  'entity_type',
  'field_key',
  'field_label',
  'field_type',
  'options',
  'required',
  'sort_order',
  'retired_at',
  'created_at',
  'updated_at',
] as const;
type Stored = Pick<Selectable<DB['custom_field_definitions']>, (typeof COLS)[number]>;
/** The stored row as its wire shape: the entity and field types are checked on write, options is a JSON list of strings. */
function toDefinition(r: Stored): DefinitionRow {
  return {
    ...r,
    entity_type: r.entity_type as CustomFieldEntity,
    field_type: r.field_type as FieldType,
    options: (r.options ?? []) as string[],
  };
}
const definitions = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('custom_field_definitions')
    .select(COLS)
    .where('organization_id', '=', orgId)
    .orderBy('entity_type')
    .orderBy('sort_order')
    .orderBy('field_key');

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
  return (await runPrepared(q, 'cfd_for_entity', definitions(q, orgId).where('entity_type', '=', entity))).map(toDefinition);
}
export async function listDefinitions(
  q: Queryable,
  orgId: string,
  f: { entity_type?: string; entity_types?: readonly string[]; include_retired?: boolean },
) {
  let list = definitions(q, orgId);
  if (f.entity_type) list = list.where('entity_type', '=', f.entity_type);
  if (f.entity_types) list = list.where('entity_type', '=', sql<string>`ANY(${f.entity_types}::text[])`);
  if (!f.include_retired) list = list.where('retired_at', 'is', null);
  return (await list.execute()).map(toDefinition);
}
/** One definition; with `entities`, only of those entity types (an area's route reaches its own records' fields only). */
export async function getDefinition(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
  entities?: readonly string[],
): Promise<DefinitionRow | null> {
  let one = kx(q).selectFrom('custom_field_definitions').select(COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (entities) one = one.where('entity_type', '=', sql<string>`ANY(${entities}::text[])`);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toDefinition(row) : null;
}
export async function keyTaken(q: Queryable, orgId: string, entity: string, key: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('custom_field_definitions')
    .select(sql<number>`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where('entity_type', '=', entity)
    .where('field_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}
export async function nextSortOrder(q: Queryable, orgId: string, entity: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('custom_field_definitions')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .where('organization_id', '=', orgId)
    .where('entity_type', '=', entity)
    .executeTakeFirst();
  return (row?.m ?? 0) + 10;
}
export async function insertDefinition(
  q: Queryable,
  orgId: string,
  d: Omit<DefinitionRow, 'retired_at' | 'created_at' | 'updated_at'>,
): Promise<DefinitionRow | null> {
  const row = await kx(q)
    .insertInto('custom_field_definitions')
    .values({
      organization_id: orgId,
      id: d.id,
      entity_type: d.entity_type,
      field_key: d.field_key,
      field_label: d.field_label,
      field_type: d.field_type,
      options: JSON.stringify(d.options),
      required: d.required,
      sort_order: d.sort_order,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(COLS)
    .executeTakeFirst();
  return row ? toDefinition(row) : null;
}
export async function updateDefinition(
  q: Queryable,
  orgId: string,
  id: string,
  p: { field_label?: string; options?: string[]; required?: boolean; sort_order?: number; retired?: boolean },
) {
  const row = await kx(q)
    .updateTable('custom_field_definitions')
    .set({
      ...(p.field_label !== undefined && { field_label: p.field_label }),
      ...(p.options !== undefined && { options: JSON.stringify(p.options) }),
      ...(p.required !== undefined && { required: p.required }),
      ...(p.sort_order !== undefined && { sort_order: p.sort_order }),
      ...(p.retired !== undefined && { retired_at: p.retired ? sql<Date>`COALESCE(retired_at, now())` : null }),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(COLS)
    .executeTakeFirst();
  return row ? toDefinition(row) : null;
}
