/**
 * The report catalogue: every report the area answers, with its title, what it shows, its parameters (read
 * from the route's own query schema, so they cannot drift) and the areas it reads besides Reports (the same
 * list its route's permission names, through needsFor()). `GET /api/reports` answers it.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Area } from '../../platform/permissions.ts';
import { DateQuery, LrrQuery, MedicalDueQuery, OnDateQuery, RangeQuery, SacQuery, VaccinationsQuery } from './schemas.ts';

/** Reports read `reports`, plus read on every area whose records they count (403 names the missing one). */
export const needs = (...areas: Area[]) => ({
  permission: { area: 'reports' as const, level: 'read' as const, also: areas.map((area) => ({ area, level: 'read' as const })) },
});

interface Entry {
  key: string;
  title: string;
  description: string;
  query: TObject;
  areas: Area[];
}

export const REPORTS: readonly Entry[] = [
  {
    key: 'sac',
    title: 'Shelter Animals Count matrix',
    description: 'One month for one species group, in SAC’s rows: beginning count, intakes, outcomes, ending count.',
    query: SacQuery,
    areas: ['animals'],
  },
  {
    key: 'live-release-rate',
    title: 'Live release rate',
    description: 'Live outcomes ÷ all outcomes, by month, with and without owner-intended euthanasia.',
    query: LrrQuery,
    areas: ['animals'],
  },
  {
    key: 'intakes',
    title: 'Intakes',
    description: 'Intakes by month, species group, species, type and subtype.',
    query: RangeQuery,
    areas: ['animals'],
  },
  {
    key: 'outcomes',
    title: 'Outcomes',
    description: 'Outcomes by month, species group, species, type and subtype.',
    query: RangeQuery,
    areas: ['animals'],
  },
  {
    key: 'length-of-stay',
    title: 'Length of stay',
    description: 'Days from intake to outcome for stays that ended in the range: median and 90th percentile.',
    query: RangeQuery,
    areas: ['animals'],
  },
  {
    key: 'in-care',
    title: 'Animals in care on a date',
    description: 'Animals whose stay was open as the day ended, by location, care state and species group.',
    query: DateQuery,
    areas: ['animals'],
  },
  {
    key: 'medical-due',
    title: 'Medical due and overdue',
    description: 'Open medical items due by a day and the days after it, by location, species and kind.',
    query: MedicalDueQuery,
    areas: ['animals'],
  },
  {
    key: 'vaccinations',
    title: 'Vaccinations given',
    description: 'Each dose with its product, manufacturer and lot number, for a recall.',
    query: VaccinationsQuery,
    areas: ['animals'],
  },
  {
    key: 'foster-homes',
    title: 'Foster homes',
    description: 'Each home’s capacity, the animals placed on the day and the free places.',
    query: OnDateQuery,
    areas: ['animals'],
  },
  {
    key: 'adoptions',
    title: 'Adoptions with fees and contracts',
    description: 'Adoptions finalized in the range, the fee and the contract signed.',
    query: RangeQuery,
    areas: ['animals'],
  },
  {
    key: 'donations',
    title: 'Donations',
    description: 'Gifts by month, campaign, type and currency (never added across currencies).',
    query: RangeQuery,
    areas: ['fundraising'],
  },
  {
    key: 'volunteer-hours',
    title: 'Volunteer hours',
    description: 'Hours of booked shift windows by volunteer and role (cancelled or absent count nothing).',
    query: RangeQuery,
    areas: ['shifts'],
  },
  {
    key: 'message-delivery',
    title: 'Message delivery',
    description: 'Outbound messages by category: sent, bounced, suppressed, failed, pending.',
    query: RangeQuery,
    areas: ['communications'],
  },
];

/** The permission of a report's route: read on Reports and on every area the catalogue says it reads. */
export function needsFor(key: string) {
  const e = REPORTS.find((r) => r.key === key);
  if (!e) throw new Error(`report ${key} is not in the catalogue (src/modules/reports/list.ts)`);
  return needs(...e.areas);
}

/** Paging and the file format are the same for every report: the catalogue lists the report's own parameters. */
const COMMON = new Set(['format', 'limit', 'offset']);

function typeOf(s: TSchema): string {
  if (s.enum) return 'enum';
  if (s.format === 'date') return 'date';
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^[0-9]{4}-(0')) return 'month';
  return String(s.type ?? 'string');
}

export interface Parameter {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  default?: unknown;
  values?: string[];
  minimum?: number;
  maximum?: number;
}

export function catalogue() {
  return REPORTS.map((r) => {
    const required = new Set(r.query.required ?? []);
    const parameters: Parameter[] = Object.entries(r.query.properties)
      .filter(([name]) => !COMMON.has(name))
      .map(([name, s]) => ({
        name,
        type: typeOf(s),
        required: required.has(name),
        ...(s.description ? { description: s.description } : {}),
        ...(s.default !== undefined ? { default: s.default as unknown } : {}),
        ...(s.enum ? { values: s.enum as string[] } : {}),
        ...(typeof s.minimum === 'number' ? { minimum: s.minimum } : {}),
        ...(typeof s.maximum === 'number' ? { maximum: s.maximum } : {}),
      }));
    return { key: r.key, path: `/api/reports/${r.key}`, title: r.title, description: r.description, parameters, areas: r.areas };
  });
}
