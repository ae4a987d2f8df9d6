/**
 * A value read from an answer as text: strings as they are, numbers and booleans spelled out, anything else as JSON;
 * null and undefined as the empty string.
 */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? '';
}
