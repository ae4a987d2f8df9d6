/**
 * What a chip number says about itself, from its shape and prefix alone. An ISO 11784 chip has 15
 * digits; its first three are an ISO 3166-1 numeric country code, or (900 to 999) a manufacturer's
 * code. Older chips: 10 characters (FDX-A, 125 kHz) or 9 digits (AVID's encrypted format).
 */
import countries from '../../platform/countries.ts';

export const CHIP_FORMATS = ['iso_15_digit', 'fdx_a_10_character', 'avid_9_digit', 'other'] as const;
export type ChipFormat = (typeof CHIP_FORMATS)[number];

/** Manufacturer codes (900 to 999) whose maker is well known; others are reported by code only. */
export const MANUFACTURER_CODES: Record<string, string> = {
  '956': 'Trovan',
  '968': 'AEG',
  '972': 'Planet-ID',
  '977': 'AVID',
  '981': 'Datamars',
  '982': 'Allflex',
  '985': 'Destron Fearing (HomeAgain)',
};

export interface ChipPrefix {
  format: ChipFormat;
  /** ISO 3166-1 alpha-2 of a country-coded ISO chip; null otherwise. */
  country: string | null;
  /** The three-digit manufacturer code (900 to 999) of a manufacturer-coded ISO chip; null otherwise. */
  manufacturer_code: string | null;
  /** The maker, when the code or format names one; null when unknown. */
  manufacturer: string | null;
}

/** Reads a normalized number (upper case, separators stripped). */
export function chipPrefix(number: string): ChipPrefix {
  if (/^\d{15}$/.test(number)) {
    const code = number.slice(0, 3);
    if (Number(code) >= 900)
      return { format: 'iso_15_digit', country: null, manufacturer_code: code, manufacturer: MANUFACTURER_CODES[code] ?? null };
    return { format: 'iso_15_digit', country: countries.numericToAlpha2(code) ?? null, manufacturer_code: null, manufacturer: null };
  }
  if (/^\d{9}$/.test(number)) return { format: 'avid_9_digit', country: null, manufacturer_code: null, manufacturer: 'AVID' };
  if (/^[0-9A-F]{10}$/.test(number)) return { format: 'fdx_a_10_character', country: null, manufacturer_code: null, manufacturer: null };
  return { format: 'other', country: null, manufacturer_code: null, manufacturer: null };
}
