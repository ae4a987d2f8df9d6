import { invalid, type FieldErrors } from '../../platform/errors.ts';
import { currencyDigits, fromMinorUnits, toMinorUnits } from '../../platform/validators.ts';

/** A wire amount (JSON number with at most the currency's decimals) → minor units, or a field error. */
export function parseAmount(errors: FieldErrors, field: string, value: number | undefined | null, currency: string, opts: { allowZero?: boolean } = {}): bigint | null {
  if (value === undefined || value === null) return null;
  const digits = currencyDigits(currency);
  const minor = toMinorUnits(value, digits);
  if (minor === null || minor < 0n || (!opts.allowZero && minor === 0n)) {
    errors[field] = [`must be ${opts.allowZero ? 'at least 0' : 'greater than 0'} with at most ${digits} decimal place${digits === 1 ? '' : 's'} for ${currency}`];
    return null;
  }
  return minor;
}

/** Minor units (bigint or the text pg gives for bigint) → a wire number in the currency's decimals. */
export function amount(minor: bigint | string | number | null | undefined, currency: string): number | null {
  if (minor === null || minor === undefined) return null;
  return fromMinorUnits(minor, currencyDigits(currency));
}

/** "USD 1,234.50" for documents: exact, from the minor units. */
export function formatMoney(minor: bigint | string, currency: string): string {
  const digits = currencyDigits(currency);
  const v = BigInt(minor);
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(digits + 1, '0');
  const whole = (digits ? abs.slice(0, -digits) : abs).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${currency} ${whole}${digits ? '.' + abs.slice(-digits) : ''}`;
}

/** Sums minor-unit amounts per currency without ever mixing currencies. */
export function sumByCurrency(rows: { currency: string; amount_minor: string | bigint }[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const r of rows) out.set(r.currency, (out.get(r.currency) ?? 0n) + BigInt(r.amount_minor));
  return out;
}

/** Deductible part of a payment that bought something: price − fair market value, never below 0. */
export function deductiblePart(paidMinor: bigint, fairMarketValueMinor: bigint | null): bigint {
  if (fairMarketValueMinor === null) return paidMinor;
  return paidMinor > fairMarketValueMinor ? paidMinor - fairMarketValueMinor : 0n;
}

export const CUSTOM_FIELDS_MAX_KEYS = 50;
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,62}$/;
export type CustomFields = Record<string, string | number | boolean>;

/**
 * Custom fields on campaigns and lots: an object of at most 50 simple values (string up to 2,000
 * characters, finite number, boolean) under snake_case keys. Throws 422 naming each bad key.
 */
export function checkCustomFields(value: unknown): CustomFields {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid({ custom_fields: ['must be an object'] });
  const entries = Object.entries(value as Record<string, unknown>);
  const errors: FieldErrors = {};
  if (entries.length > CUSTOM_FIELDS_MAX_KEYS) errors.custom_fields = [`must have at most ${CUSTOM_FIELDS_MAX_KEYS} keys`];
  for (const [k, v] of entries) {
    if (!CUSTOM_FIELD_KEY.test(k)) errors[`custom_fields.${k}`] = ['is not a valid key (lowercase letters, digits and _, starting with a letter, at most 63 characters)'];
    else if (typeof v === 'string') {
      if (v.length > 2000) errors[`custom_fields.${k}`] = ['must be at most 2000 characters'];
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) errors[`custom_fields.${k}`] = ['must be a finite number'];
    } else if (typeof v !== 'boolean') errors[`custom_fields.${k}`] = ['must be a string, number or boolean'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return value as CustomFields;
}
