import { checkFreeformFields, type FreeformFields } from '../customfields/public.ts';
import type { FieldErrors } from '../../platform/errors.ts';
import { currencyDigits, fromMinorUnits, toMinorUnits } from '../../platform/validators.ts';

/** A wire amount (JSON number with at most the currency's decimals) → minor units, or a field error. */
export function parseAmount(
  errors: FieldErrors,
  field: string,
  value: number | undefined | null,
  currency: string,
  opts: { allowZero?: boolean } = {},
): bigint | null {
  if (value === undefined || value === null) return null;
  const digits = currencyDigits(currency);
  const minor = toMinorUnits(value, digits);
  if (minor === null || minor < 0n || (!opts.allowZero && minor === 0n)) {
    errors[field] = [
      `must be ${opts.allowZero ? 'at least 0' : 'greater than 0'} with at most ${digits} decimal ` +
        `place${digits === 1 ? '' : 's'} for ${currency}`,
    ];
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

export type CustomFields = FreeformFields;

/** Custom fields on campaigns and lots: free-form simple values (see customfields/freeform.ts). */
export function checkCustomFields(value: unknown): CustomFields {
  return checkFreeformFields(value) as CustomFields;
}
