import { stringify } from 'csv-stringify/sync';
import { safeRow } from '../../platform/spreadsheet.ts';
import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { invalid, missing } from '../../platform/errors.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { Config } from '../../config.ts';
import { getAnimal, publicDescription } from '../animals/public.ts';
import { orgBaseUrl } from '../communications/public.ts';
import { ageAtIntake } from '../stays/public.ts';
import { printablePhoto } from '../media/public.ts';
import { cardTemplateById } from './setup.service.ts';
import { cageCardsPdf, type CardAnimal } from './pdf.ts';
import type { ReconciliationT } from './schemas.ts';

/**
 * Adoptions finalized in [from, to] (days in the organization's time zone; returned ones included: the fee was due)
 * with the fee due and what was received against each: the donations linked to it, and the adopter's post-adoption
 * donations for that animal dated on or after the adoption day that are linked to no adoption.
 */
export async function reconcile(q: Queryable, org: Organization, from: string, to: string): Promise<ReconciliationT> {
  if (to < from) throw invalid({ to: ['must not be before from'] });
  const orgId = org.id;
  const zone = org.time_zone;
  const rows = await kx(q)
    // a: the adoptions finalized in the period, with their day in the organization's time zone
    .with('a', (db) =>
      db
        .selectFrom('adoptions as d')
        .select([
          'd.id',
          'd.animal_id',
          'd.person_id',
          'd.fee_rule',
          'd.fee_minor',
          sql<Date>`(d.adopted_at AT TIME ZONE ${zone})::date`.as('adopted_on'),
        ])
        .where('d.organization_id', '=', orgId)
        .where('d.adopted_at', 'is not', null)
        .where(sql<boolean>`(d.adopted_at AT TIME ZONE ${zone})::date BETWEEN ${from}::date AND ${to}::date`),
    )
    // got: what was received against each: its linked donations, and the adopter's unlinked post-adoption donations for the animal
    .with('got', (db) =>
      db
        .selectFrom('a')
        .innerJoin('adoption_donations as x', (j) => j.on('x.organization_id', '=', orgId).onRef('x.adoption_id', '=', 'a.id'))
        .innerJoin('donation_ledger as l', (j) =>
          j.on('l.organization_id', '=', orgId).onRef('l.id', '=', 'x.donation_id').on('l.deleted_at', 'is', null),
        )
        .select(['a.id as adoption_id', 'l.id as donation_id', 'l.amount_minor'])
        .union(
          db
            .selectFrom('a')
            .innerJoin('donation_ledger as l', (j) =>
              j
                .on('l.organization_id', '=', orgId)
                .on('l.deleted_at', 'is', null)
                .on('l.type', '=', 'post-adoption')
                .onRef('l.donor_id', '=', 'a.person_id')
                .onRef('l.animal_id', '=', 'a.animal_id')
                .on(sql<boolean>`l.date >= a.adopted_on`),
            )
            .select(['a.id as adoption_id', 'l.id as donation_id', 'l.amount_minor'])
            .where(
              sql<boolean>`NOT EXISTS (SELECT 1 FROM adoption_donations y WHERE y.organization_id = ${orgId} AND y.donation_id = l.id)`,
            ),
        ),
    )
    .selectFrom('a')
    .leftJoin('animal_directory as an', (j) => j.on('an.organization_id', '=', orgId).onRef('an.id', '=', 'a.animal_id'))
    .leftJoin('people_directory as p', (j) => j.on('p.organization_id', '=', orgId).onRef('p.id', '=', 'a.person_id'))
    .select([
      'a.id as adoption_id',
      sql<string>`to_char(a.adopted_on, 'YYYY-MM-DD')`.as('adopted_on'),
      'a.animal_id',
      sql<string>`coalesce(an.name, '')`.as('animal_name'),
      'a.person_id',
      sql<string>`coalesce(p.display_name, '')`.as('adopter_name'),
      'a.fee_rule',
      'a.fee_minor as fee_due_minor',
      sql<string>`coalesce((SELECT sum(g.amount_minor) FROM got g WHERE g.adoption_id = a.id), 0)`.as('received_minor'),
      sql<string[]>`coalesce((SELECT array_agg(g.donation_id ORDER BY g.donation_id) FROM got g WHERE g.adoption_id = a.id), '{}')`.as(
        'donation_ids',
      ),
    ])
    .orderBy('a.adopted_on')
    .orderBy('a.id')
    .execute();
  const results = rows.map((r) => {
    const due = Number(r.fee_due_minor);
    const got = Number(r.received_minor);
    return { ...r, fee_due_minor: due, received_minor: got, difference_minor: got - due };
  });
  const sum = (k: 'fee_due_minor' | 'received_minor' | 'difference_minor') => results.reduce((n, r) => n + r[k], 0);
  return {
    from,
    to,
    currency: org.currency,
    results,
    total_due_minor: sum('fee_due_minor'),
    total_received_minor: sum('received_minor'),
    total_difference_minor: sum('difference_minor'),
    differences: results.filter((r) => r.difference_minor !== 0).length,
  };
}

export function reconciliationCsv(r: ReconciliationT): string {
  return stringify(
    r.results.map((x) =>
      safeRow([
        x.adoption_id,
        x.adopted_on,
        x.animal_id,
        x.animal_name,
        x.person_id,
        x.adopter_name,
        x.fee_rule ?? '',
        x.fee_due_minor,
        x.received_minor,
        x.difference_minor,
        r.currency,
        x.donation_ids.join(' '),
      ]),
    ),
    {
      header: true,
      columns: [
        'adoption_id',
        'adopted_on',
        'animal_id',
        'animal_name',
        'person_id',
        'adopter_name',
        'fee_rule',
        'fee_due_minor',
        'received_minor',
        'difference_minor',
        'currency',
        'donation_ids',
      ],
    },
  );
}

/** "3 weeks", "5 months", "2 years" on `on`. */
export function ageText(weeks: number | null): string | null {
  if (weeks === null) return null;
  if (weeks < 9) return `${weeks} week${weeks === 1 ? '' : 's'}`;
  const months = Math.floor(weeks / 4.345);
  if (months < 24) return `${months} months`;
  return `${Math.floor(months / 12)} years`;
}

/** The address a cage card's QR code leads to: the organization's website, else its Ark address, with /animals/{id}. */
export function publicAnimalUrl(config: Config, org: Organization, id: string): string {
  const base = org.website ? org.website.replace(/\/+$/, '') : orgBaseUrl(config, org.slug);
  return `${base}/animals/${encodeURIComponent(id)}`;
}

export async function renderCards(
  q: Queryable,
  config: Config,
  org: Organization,
  templateId: string,
  query: { animal_id?: string[]; location_id?: string },
): Promise<Buffer> {
  const t = await cardTemplateById(q, org.id, templateId);
  if (!query.animal_id?.length && !query.location_id) throw missing(['animal_id']);
  const ids = [...(query.animal_id ?? [])];
  if (query.location_id) {
    const at = await kx(q)
      .selectFrom('animal_directory')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('location_id', '=', query.location_id)
      .where('deleted_at', 'is', null)
      .orderBy('name')
      .orderBy('id')
      .limit(500)
      .$narrowType<{ id: string }>()
      .execute();
    for (const r of at) if (!ids.includes(r.id)) ids.push(r.id);
  }
  const today = DateTime.now().setZone(org.time_zone);
  const animals: CardAnimal[] = [];
  const lost: string[] = [];
  for (const id of ids) {
    const a = await getAnimal(q, org.id, id);
    if (!a) {
      lost.push(id);
      continue;
    }
    let weeks: number | null = null;
    if (a.date_of_birth)
      weeks = Math.max(0, Math.floor(today.diff(DateTime.fromISO(a.date_of_birth, { zone: org.time_zone }), 'weeks').weeks));
    else {
      const at = await ageAtIntake(q, org.id, id);
      if (at) weeks = at.age_weeks + Math.max(0, Math.floor(today.diff(DateTime.fromJSDate(at.intake_at), 'weeks').weeks));
    }
    // The animal's public description; a custom field `public_description` still prints where the field is empty.
    const desc = (await publicDescription(q, org.id, id)) ?? (a.custom_fields as Record<string, unknown> | null)?.public_description;
    animals.push({
      id,
      name: a.public_name || a.name,
      species: a.species,
      breed: a.breed,
      sex: a.sex,
      age: ageText(weeks),
      microchip: a.microchip_number,
      intake_date: a.intake_date,
      description: typeof desc === 'string' ? desc : null,
      public_url: publicAnimalUrl(config, org, id),
      photo: t.fields.includes('photo') ? await printablePhoto(q, config, org.id, id) : null,
    });
  }
  if (lost.length) throw invalid({ animal_id: [`names no animal on file: ${lost.join(', ')}`] });
  if (!animals.length) throw invalid({ location_id: ['no animal is at this location'] });
  return cageCardsPdf(t, animals, org.name);
}
