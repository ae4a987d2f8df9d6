/**
 * Money as a person reads it ("$1,250.00", "¥1,250", "CA$75.00"), in English notation, from integer minor units and
 * exactly (the digits are placed as text, never divided in binary floating point). One formatter per currency is
 * built once per process: building an `Intl.NumberFormat` costs tens of microseconds, formatting with it well under one.
 */
const formats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

export function moneyText(minor: bigint | string | number, currency: string): string {
  let f = formats.get(currency);
  if (!f) {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    f = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    formats.set(currency, f);
  }
  const v = BigInt(minor);
  const abs = (v < 0n ? -v : v).toString().padStart(f.digits + 1, '0');
  const text = `${v < 0n ? '-' : ''}${f.digits ? `${abs.slice(0, -f.digits)}.${abs.slice(-f.digits)}` : abs}`;
  // A decimal string is formatted as written (ECMA-402's string numerics), so no amount is rounded on its way.
  return f.format.format(text as unknown as number);
}
