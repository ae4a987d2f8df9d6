import { invalid, type FieldErrors } from '../../platform/errors.ts';

export const FREEFORM_MAX_KEYS = 50;
export const FREEFORM_KEY = /^[a-z][a-z0-9_]{0,62}$/;
export type FreeformValue = string | number | boolean;
export type FreeformFields = Record<string, FreeformValue>;

/**
 * Free-form `custom_fields` of records that have no field definitions (campaigns, auction lots,
 * volunteer schedules): an object of at most 50 simple values (string up to 2,000 characters unless told,
 * finite number, boolean; `null` too where `allowNull`) under snake_case keys. 422 names each bad key.
 */
export function checkFreeformFields(
  value: unknown,
  opts: { allowNull?: boolean; maxString?: number } = {},
): Record<string, FreeformValue | null> {
  const maxString = opts.maxString ?? 2000;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid({ custom_fields: ['must be an object'] });
  const entries = Object.entries(value as Record<string, unknown>);
  const errors: FieldErrors = {};
  if (entries.length > FREEFORM_MAX_KEYS) errors.custom_fields = [`must have at most ${FREEFORM_MAX_KEYS} keys`];
  for (const [k, v] of entries) {
    const field = `custom_fields.${k}`;
    if (!FREEFORM_KEY.test(k))
      errors[field] = ['is not a valid key (lowercase letters, digits and _, starting with a letter, at most 63 characters)'];
    else if (typeof v === 'string') {
      if (v.length > maxString) errors[field] = [`must be at most ${maxString} characters`];
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) errors[field] = ['must be a finite number'];
    } else if (typeof v !== 'boolean' && !(v === null && opts.allowNull)) errors[field] = ['must be a string, number or boolean'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return value as Record<string, FreeformValue | null>;
}
