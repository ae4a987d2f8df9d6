import type { Queryable } from '../../platform/db/db.ts';
import { invalid } from '../../platform/errors.ts';

export type CustomFieldEntity = 'animal' | 'location_unit' | 'adoption_application';

/**
 * Checks a record's custom field values against the organization's definitions and returns the
 * values to store. `creating` enforces required fields. Until definitions exist, any value is refused.
 * (Replaced by the custom-fields module with the full per-type rules.)
 */
export async function checkCustomFields(
  _q: Queryable,
  _orgId: string,
  _entity: CustomFieldEntity,
  values: Record<string, unknown> | undefined,
  _opts: { creating: boolean; current?: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const keys = Object.keys(values ?? {});
  if (keys.length) throw invalid(Object.fromEntries(keys.map((k) => [`custom_fields.${k}`, ['is not a custom field of this organization']])));
  return {};
}
