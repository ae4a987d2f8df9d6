import { readFileSync } from 'node:fs';
import countries from '../../platform/countries.ts';

/** Upper case, separators stripped: `985-112 003.456*789` and `985112003456789` are one chip. */
export function normalizeMicrochip(chip: string): string {
  return chip.toUpperCase().replace(/[\s.\-*/]/g, '');
}

const MAKERS = (JSON.parse(readFileSync(new URL('./microchip-makers.json', import.meta.url), 'utf8')) as { makers: Record<string, string> })
  .makers;

export const CHIP_STANDARDS = ['iso_11784', 'fdx_a', 'avid', 'unknown'] as const;

export interface ChipWarning {
  code: string;
  message: string;
}

/** What a normalized chip number says about itself: its standard, country or maker, and what looks wrong. */
export function chipFacts(number: string) {
  const warnings: ChipWarning[] = [];
  let standard: (typeof CHIP_STANDARDS)[number] = 'unknown';
  let country_code: string | null = null;
  let country_name: string | null = null;
  let manufacturer_code: string | null = null;
  let manufacturer: string | null = null;
  if (number.length === 15) {
    if (/^\d{15}$/.test(number)) {
      standard = 'iso_11784';
      const prefix = number.slice(0, 3);
      if (Number(prefix) >= 900) {
        manufacturer_code = prefix;
        manufacturer = MAKERS[prefix] ?? null;
      } else {
        country_code = countries.numericToAlpha2(prefix) ?? null;
        country_name = country_code ? (countries.getName(country_code, 'en') ?? null) : null;
        if (!country_code)
          warnings.push({
            code: 'unknown_country',
            message: `${prefix} is not an ISO 3166 numeric country code, so the country is unknown`,
          });
      }
    } else warnings.push({ code: 'not_digits', message: 'a 15-character chip number (ISO 11784) is normally all digits' });
  } else if (number.length === 10) standard = 'fdx_a';
  else if (number.length === 9) standard = 'avid';
  else
    warnings.push({
      code: 'unusual_length',
      message: `the number has ${number.length} characters; chips have 9 (AVID), 10 (FDX-A) or 15 (ISO 11784): check it was read correctly`,
    });
  return { standard, country_code, country_name, manufacturer_code, manufacturer, warnings };
}
