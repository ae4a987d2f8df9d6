import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';

/**
 * Custom field definitions: the writes, each one transaction with its audit row. Records are checked against cached
 * definitions: the routes call `ctx.changed()` once a write has committed.
 */

const CHOICE_TYPES = new Set(['select', 'multiselect']);
type Entities = readonly repo.CustomFieldEntity[];

export function checkOptions(type: string, options: string[]) {
  if (CHOICE_TYPES.has(type) && options.length === 0) throw invalid({ options: [`is required and must not be empty for a ${type} field`] });
  if (!CHOICE_TYPES.has(type) && options.length > 0) throw invalid({ options: [`must be empty for a ${type} field`] });
}

/** A definition of the given entity types (another area's answers 404). */
export async function definitionOf(q: Queryable, orgId: string, id: string, entities: Entities, lock = false) {
  const row = await repo.getDefinition(q, orgId, id, lock, entities);
  if (!row) throw notFound('custom field');
  return row;
}

export interface DefinitionInput {
  entity_type: repo.CustomFieldEntity;
  field_key: string;
  field_label: string;
  field_type: repo.FieldType;
  options?: string[];
  required?: boolean;
  sort_order?: number;
}

export async function defineField(db: Db, orgId: string, actor: string, b: DefinitionInput) {
  const options = b.options ?? [];
  checkOptions(b.field_type, options);
  if (repo.SCALAR_ENTITIES.includes(b.entity_type) && !repo.SCALAR_TYPES.includes(b.field_type))
    throw invalid({ field_type: [`${b.entity_type} fields take one simple value: one of ${repo.SCALAR_TYPES.join(', ')}`] });
  return db.tx(async (q) => {
    const dup = () => invalid({ field_key: [`${b.field_key} is already a custom field of ${b.entity_type} records`] });
    if (await repo.keyTaken(q, orgId, b.entity_type, b.field_key)) throw dup();
    const created = await repo.insertDefinition(q, orgId, {
      id: newId('cfd'),
      entity_type: b.entity_type,
      field_key: b.field_key,
      field_label: b.field_label,
      field_type: b.field_type,
      options,
      required: b.required ?? false,
      sort_order: b.sort_order ?? (await repo.nextSortOrder(q, orgId, b.entity_type)),
    });
    if (!created) throw dup(); // a concurrent create took the key
    await audit(q, orgId, actor, 'create', 'custom_field', created.id, b);
    return created;
  });
}

/** Label, options, required flag, order; key, entity type and field type never change (422). */
export async function changeField(
  db: Db,
  orgId: string,
  actor: string,
  id: string,
  entities: Entities,
  b: {
    field_label?: string;
    options?: string[];
    required?: boolean;
    sort_order?: number;
    field_key?: unknown;
    entity_type?: unknown;
    field_type?: unknown;
  },
) {
  const fixed = (['field_key', 'entity_type', 'field_type'] as const).filter((k) => k in b);
  if (fixed.length) throw invalid(Object.fromEntries(fixed.map((k) => [k, ['cannot change after the field is created']])));
  return db.tx(async (q) => {
    const current = await definitionOf(q, orgId, id, entities, true);
    if (b.options) checkOptions(current.field_type, b.options);
    const row = await repo.updateDefinition(q, orgId, current.id, b);
    if (!row) throw notFound('custom field');
    await auditChanges(q, orgId, actor, 'custom_field', current.id, current, row);
    return row;
  });
}

/** sort_order becomes 10, 20, 30, … in the listed order; retired fields left out go last. */
export function reorderFields(db: Db, orgId: string, actor: string, entity_type: repo.CustomFieldEntity, field_ids: string[]) {
  return db.tx(async (q) => {
    const all = await repo.listDefinitions(q, orgId, { entity_type, include_retired: true });
    const ids = new Set(all.map((d) => d.id));
    const unknown = field_ids.filter((id) => !ids.has(id));
    if (unknown.length)
      throw invalid({
        field_ids: [`${unknown.join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${entity_type} records`],
      });
    const left = all.filter((d) => !d.retired_at && !field_ids.includes(d.id));
    if (left.length) throw invalid({ field_ids: [`must list every active field; missing ${left.map((d) => d.field_key).join(', ')}`] });
    let order = 0;
    const rest = all.filter((d) => !field_ids.includes(d.id)).map((d) => d.id);
    for (const id of [...field_ids, ...rest]) await repo.updateDefinition(q, orgId, id, { sort_order: (order += 10) });
    await audit(q, orgId, actor, 'reorder', 'custom_field', entity_type, field_ids);
    return { results: await repo.listDefinitions(q, orgId, { entity_type, include_retired: true }) };
  });
}

/** Retires (or restores) a field; retiring twice is harmless. */
export function setRetired(db: Db, orgId: string, actor: string, id: string, entities: Entities, action: 'retire' | 'restore') {
  return db.tx(async (q) => {
    const current = await definitionOf(q, orgId, id, entities, true);
    const row = await repo.updateDefinition(q, orgId, current.id, { retired: action === 'retire' });
    if (!row) throw notFound('custom field');
    await audit(q, orgId, actor, action, 'custom_field', row.id);
    return row;
  });
}
