import currencyCodes from 'currency-codes';
import countries from './countries.ts';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
// Two checks, not the whole validator package (over a hundred modules at start-up).
import isEmailModule from 'validator/lib/isEmail.js';
import isURLModule from 'validator/lib/isURL.js';
import { IANAZone } from 'luxon';

const validatorIsEmail = isEmailModule.default;
const validatorIsURL = isURLModule.default;

/** Field checks done with proper libraries, shared by every module. */

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && currencyCodes.code(code) !== undefined;
}
/** Decimal places of a currency's minor unit (USD 2, JPY 0, BHD 3). */
export function currencyDigits(code: string): number {
  return currencyCodes.code(code)?.digits ?? 2;
}
export function isCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}
export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}
/** A lone UTF-16 surrogate (half of a pair): valid in a JSON string, never in text, and validator's checks throw on it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export function isWellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}
export function isEmail(value: string): boolean {
  return isWellFormed(value) && validatorIsEmail(value);
}
export function isHttpUrl(value: string): boolean {
  return isWellFormed(value) && validatorIsURL(value, { protocols: ['http', 'https'], require_protocol: true, require_tld: false });
}
/** A phone number in E.164 (`+14155550123`), or null when it is not a phone number. */
export function normalizePhone(value: string, defaultCountry = 'US'): string | null {
  const parsed = parsePhoneNumberFromString(value, defaultCountry as CountryCode);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** A JSON number or decimal string → integer minor units, exactly; null if it has too many decimals. */
export function toMinorUnits(amount: number | string, digits: number): bigint | null {
  const text = typeof amount === 'number' ? numberToPlain(amount) : amount.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > digits) return null;
  const minor = BigInt((m[2] ?? '0') + frac.padEnd(digits, '0'));
  return m[1] === '-' ? -minor : minor;
}
/** Integer minor units → a JSON number with the currency's decimals (exact in its decimal text). */
export function fromMinorUnits(minor: bigint | string | number, digits: number): number {
  const v = BigInt(minor);
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(digits + 1, '0');
  const text = digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return Number((neg ? '-' : '') + text);
}
function numberToPlain(n: number): string {
  if (!Number.isFinite(n)) return 'NaN';
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}
