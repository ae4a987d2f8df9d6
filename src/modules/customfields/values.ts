import countries from '../../platform/countries.ts';
import { organizationCountry } from '../../platform/tenancy.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { AppError, invalid, type FieldErrors } from '../../platform/errors.ts';
import { isEmail, isHttpUrl, normalizePhone } from '../../platform/validators.ts';
import { definitionsFor, type CustomFieldEntity, type DefinitionRow } from './repository.ts';

export type { CustomFieldEntity };
export const TEXTAREA_MAX = 5000;

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

type Checked = { ok: true; value: unknown } | { ok: false; message: string };

function isDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * One value against its definition (pure). Returns the value to store: phones become E.164,
 * country codes upper case, multiselect values de-duplicated in option order.
 */
export function checkValue(def: Pick<DefinitionRow, 'field_type' | 'options'>, value: unknown, defaultCountry = 'US'): Checked {
  const bad = (message: string): Checked => ({ ok: false, message });
  switch (def.field_type) {
    case 'text':
      return typeof value === 'string' ? { ok: true, value } : bad('must be a string');
    case 'textarea':
      if (typeof value !== 'string') return bad('must be a string');
      // Characters are code points: an emoji counts once, not as its two UTF-16 units.
      return codePoints(value) <= TEXTAREA_MAX ? { ok: true, value } : bad(`must be at most ${TEXTAREA_MAX} characters`);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : bad('must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : bad('must be true or false');
    case 'date':
      return typeof value === 'string' && isDate(value) ? { ok: true, value } : bad('must be a date (YYYY-MM-DD)');
    case 'select':
      return typeof value === 'string' && def.options.includes(value)
        ? { ok: true, value }
        : bad(`must be one of: ${def.options.join(', ')}`);
    case 'multiselect': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !def.options.includes(v)))
        return bad(`must be a list of: ${def.options.join(', ')}`);
      const chosen = new Set(value as string[]);
      return { ok: true, value: def.options.filter((o) => chosen.has(o)) };
    }
    case 'phone': {
      if (typeof value !== 'string') return bad('must be a phone number');
      const e164 = normalizePhone(value, defaultCountry);
      return e164 ? { ok: true, value: e164 } : bad('must be a phone number');
    }
    case 'email':
      return typeof value === 'string' && isEmail(value) ? { ok: true, value } : bad('must be an email address');
    case 'url':
      return typeof value === 'string' && isHttpUrl(value) ? { ok: true, value } : bad('must be an address starting http:// or https://');
    case 'country_state': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return bad('must be an object with a two-letter country code and an optional state');
      const o = value as Record<string, unknown>;
      const extra = Object.keys(o).filter((k) => k !== 'country' && k !== 'state');
      if (extra.length) return bad(`accepts only country and state, not ${extra.join(', ')}`);
      if (typeof o.country !== 'string' || !/^[A-Za-z]{2}$/.test(o.country) || !countries.isValid(o.country.toUpperCase()))
        return bad('country must be a two-letter ISO 3166-1 country code');
      if (o.state !== undefined && o.state !== null && (typeof o.state !== 'string' || o.state.trim() === '' || o.state.length > 100))
        return bad('state must be a non-empty string of at most 100 characters');
      const out: Record<string, string> = { country: o.country.toUpperCase() };
      if (typeof o.state === 'string') out.state = o.state.trim();
      return { ok: true, value: out };
    }
    default: {
      const never: never = def.field_type;
      return bad(`has an unknown type ${String(never)}`);
    }
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks a record's values against definitions (pure). `values` is the whole object the record
 * will hold; only values that differ from `current` are checked, so a value stored before an
 * option was removed stays until someone changes it. `null` removes a value.
 */
export function checkValues(
  defs: readonly Pick<DefinitionRow, 'field_key' | 'field_type' | 'options' | 'required' | 'retired_at'>[],
  values: Record<string, unknown> | undefined,
  opts: { creating: boolean; current?: Record<string, unknown>; defaultCountry?: string; prefix?: string },
): { values: Record<string, unknown>; errors: FieldErrors } {
  const prefix = opts.prefix ?? 'custom_fields';
  const current = opts.current ?? {};
  const byKey = new Map(defs.map((d) => [d.field_key, d]));
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    const changed = !(key in current) || !same(current[key], value);
    const def = byKey.get(key);
    if (!changed) {
      if (value !== null) out[key] = value;
      continue;
    }
    if (!def) {
      errors[`${prefix}.${key}`] = ['is not a custom field of this organization'];
      continue;
    }
    if (value === null) continue;
    if (def.retired_at) {
      errors[`${prefix}.${key}`] = ['is a retired custom field and takes no new values'];
      continue;
    }
    const r = checkValue(def, value, opts.defaultCountry);
    if (r.ok) out[key] = r.value;
    else errors[`${prefix}.${key}`] = [r.message];
  }
  for (const d of defs) {
    if (!d.required || d.retired_at || errors[`${prefix}.${d.field_key}`]) continue;
    const missingNow = out[d.field_key] === undefined;
    // On create every required field needs a value; on update a value may not be removed.
    if (missingNow && (opts.creating || (d.field_key in current && current[d.field_key] !== null))) {
      errors[`${prefix}.${d.field_key}`] = ['is required'];
    }
  }
  return { values: out, errors };
}

/**
 * Checks a record's custom field values against the organization's definitions for `entity` and
 * returns the values to store (422 on any problem). Reusable by every entity type that keeps
 * `custom_fields`: animals, housing units, adoption applications.
 */
export async function checkCustomFields(
  q: Queryable,
  orgId: string,
  entity: CustomFieldEntity,
  values: Record<string, unknown> | undefined,
  opts: { creating: boolean; current?: Record<string, unknown>; prefix?: string; defs?: readonly DefinitionRow[] },
): Promise<Record<string, unknown>> {
  const defs = opts.defs ?? (await definitionsFor(q, orgId, entity));
  // The organization's country is the default of phone numbers only: read when a phone field has a value to check.
  const phone = values !== undefined && defs.some((d) => d.field_type === 'phone' && d.field_key in values);
  const r = checkValues(defs, values, { ...opts, defaultCountry: phone ? ((await organizationCountry(q, orgId)) ?? 'US') : 'US' });
  if (Object.keys(r.errors).length) {
    // On create, a required field with no value is a missing field (400), as for any other required
    // field; clearing one on update is a value that is not allowed (422).
    if (opts.creating && Object.values(r.errors).some((m) => m.includes('is required'))) {
      const names = Object.entries(r.errors)
        .filter(([, m]) => m.includes('is required'))
        .map(([k]) => k.split('.').pop());
      throw new AppError(
        'VALIDATION_ERROR',
        `The required custom field${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'have' : 'has'} no value.`,
        r.errors,
        400,
      );
    }
    throw invalid(r.errors);
  }
  return r.values;
}
