/**
 * What other modules may use of the custom fields module. The table `custom_field_definitions` belongs
 * to this module: other modules check values through these functions and never read or write it.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { invalid } from '../../platform/errors.ts';
import { definitionsFor, type CustomFieldEntity as Entity } from './repository.ts';
import { checkCustomFields as checkDefined } from './values.ts';
export { checkFreeformFields, type FreeformFields, type FreeformValue } from './freeform.ts';
export { checkCustomFields, type CustomFieldEntity } from './values.ts';
export { insertDefinition, type FieldType } from './repository.ts';
/** One value against a field type and options (pure), for forms built from the same field types. */
export { checkValue } from './values.ts';
export { FIELD_TYPES } from './repository.ts';

/**
 * Custom fields of a record whose fields may be free-form (shift schedules, campaigns): while the organization has no
 * definition for `entity`, `freeform` checks the values; from its first definition on, only defined keys are taken,
 * each checked by its type (required ones too), as for animals.
 */
export async function checkDefinedOrFreeform<T>(
  q: Queryable,
  orgId: string,
  entity: Entity,
  values: unknown,
  opts: { creating: boolean; current?: Record<string, unknown> },
  freeform: (values: unknown) => T,
): Promise<T> {
  const defs = await definitionsFor(q, orgId, entity);
  if (!defs.length) return freeform(values);
  if (values === null || typeof values !== 'object' || Array.isArray(values)) throw invalid({ custom_fields: ['must be an object'] });
  return (await checkDefined(q, orgId, entity, values as Record<string, unknown>, { ...opts, defs })) as T;
}
