import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { useSession } from '../session';

/**
 * A stored phone (E.164) as a person reads it: the organization's country's national format for its own numbers,
 * the international format for any other; anything unreadable as typed.
 */
export function phoneText(v: string | null | undefined, country: string): string {
  if (!v) return '—';
  const p = parsePhoneNumberFromString(v, country as CountryCode);
  if (!p) return v;
  return p.country === country ? p.formatNational() : p.formatInternational();
}
/** The formatter for the signed-in organization's country. */
export function usePhone(): (v: string | null | undefined) => string {
  const country = (useSession().data?.organization as { country?: string } | undefined)?.country ?? 'US';
  return (v) => phoneText(v, country);
}
