import { Type, type SchemaOptions } from '@sinclair/typebox';
import type { Ajv } from 'ajv';
import { SLUG_PATTERN } from './tenancy.ts';
import { isCountry, isCurrency, isEmail, isHttpUrl, isTimeZone } from './validators.ts';

/**
 * Ark's own string formats, checked once by Ajv for every route (and for the command line and
 * imports through `check`), so a bad currency or country reads the same from every area. Each
 * format names the words its error uses: "must be <words>".
 */
const PHONE_TEXT = /^\+?[\d\s().\-/]*\d[\d\s().\-/]*$/;
export const FORMATS: Record<string, { validate: (value: string) => boolean; words: string }> = {
  currency: { validate: isCurrency, words: 'an ISO 4217 currency code such as USD' },
  country: { validate: isCountry, words: 'an ISO 3166-1 alpha-2 country code such as US' },
  'time-zone': { validate: isTimeZone, words: 'an IANA time zone such as America/New_York' },
  email: { validate: isEmail, words: 'an email address' },
  'http-url': { validate: isHttpUrl, words: 'an address starting http:// or https://' },
  // The number itself is checked (and written in E.164) by the area that knows which country to assume.
  phone: { validate: (v) => PHONE_TEXT.test(v), words: 'a phone number' },
  slug: {
    validate: (v) => SLUG_PATTERN.test(v),
    words: 'lowercase letters, digits and hyphens, starting with a letter or digit (at most 63)',
  },
};

export function addFormats(ajv: Ajv) {
  for (const [name, f] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: f.validate });
}

export const Currency = (options: SchemaOptions = {}) =>
  Type.String({ format: 'currency', description: 'ISO 4217 currency code', ...options });
export const Country = (options: SchemaOptions = {}) =>
  Type.String({ format: 'country', description: 'ISO 3166-1 alpha-2 country code', ...options });
export const TimeZone = (options: SchemaOptions = {}) =>
  Type.String({ format: 'time-zone', maxLength: 64, description: 'IANA time zone', ...options });
export const Email = (options: SchemaOptions = {}) => Type.String({ format: 'email', maxLength: 254, ...options });
export const HttpUrl = (options: SchemaOptions = {}) =>
  Type.String({ format: 'http-url', description: 'an address starting http:// or https://', ...options });
/** Phone notation as a person writes it; the area stores it in E.164. */
export const Phone = (options: SchemaOptions = {}) => Type.String({ format: 'phone', minLength: 3, maxLength: 40, ...options });
export const Slug = (options: SchemaOptions = {}) => Type.String({ format: 'slug', maxLength: 63, ...options });
export const RoleName = (options: SchemaOptions = {}) =>
  Type.String({ minLength: 1, maxLength: 63, description: 'unique within the organization', ...options });

/** One record id in the path: `/things/:id`. */
export const Id64 = (options: SchemaOptions = {}) => Type.String({ maxLength: 64, ...options });
export const IdParam = Type.Object({ id: Id64() });
/** Path params that are all ids: `idParams('id', 'lot_id')`. */
export function idParams<const K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((n) => [n, Id64()])) as Record<K, ReturnType<typeof Id64>>);
}
