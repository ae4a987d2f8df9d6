import { stringify } from 'csv-stringify/sync';
import { safeRow } from '../../platform/spreadsheet.ts';
import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
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
  const rows = await q.query<{
    adoption_id: string;
    adopted_on: string;
    animal_id: string;
    animal_name: string;
    person_id: string;
    adopter_name: string;
    fee_rule: string | null;
    fee_due_minor: string;
    received_minor: string;
    donation_ids: string[];
  }>(
    `WITH a AS (
       SELECT d.id, d.animal_id, d.person_id, d.fee_rule, d.fee_minor, (d.adopted_at AT TIME ZONE $4)::date AS adopted_on
         FROM adoptions d
        WHERE d.organization_id = $1 AND d.adopted_at IS NOT NULL AND (d.adopted_at AT TIME ZONE $4)::date BETWEEN $2::date AND $3::date
     ), got AS (
       SELECT a.id AS adoption_id, l.id AS donation_id, l.amount_minor
         FROM a JOIN adoption_donations x ON x.organization_id = $1 AND x.adoption_id = a.id
         JOIN donation_ledger l ON l.organization_id = $1 AND l.id = x.donation_id AND l.deleted_at IS NULL
       UNION
       SELECT a.id, l.id, l.amount_minor
         FROM a JOIN donation_ledger l ON l.organization_id = $1 AND l.deleted_at IS NULL AND l.type = 'post-adoption'
              AND l.donor_id = a.person_id AND l.animal_id = a.animal_id AND l.date >= a.adopted_on
        WHERE NOT EXISTS (SELECT 1 FROM adoption_donations y WHERE y.organization_id = $1 AND y.donation_id = l.id)
     )
     SELECT a.id AS adoption_id, to_char(a.adopted_on, 'YYYY-MM-DD') AS adopted_on, a.animal_id, coalesce(an.name, '') AS animal_name,
            a.person_id, coalesce(p.display_name, '') AS adopter_name, a.fee_rule, a.fee_minor AS fee_due_minor,
            coalesce((SELECT sum(g.amount_minor) FROM got g WHERE g.adoption_id = a.id), 0) AS received_minor,
            coalesce((SELECT array_agg(g.donation_id ORDER BY g.donation_id) FROM got g WHERE g.adoption_id = a.id), '{}') AS donation_ids
       FROM a
       LEFT JOIN animal_directory an ON an.organization_id = $1 AND an.id = a.animal_id
       LEFT JOIN people_directory p ON p.organization_id = $1 AND p.id = a.person_id
      ORDER BY a.adopted_on, a.id`,
    [org.id, from, to, org.time_zone],
  );
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
    const at = await q.query<{ id: string }>(
      'SELECT id FROM animal_directory WHERE organization_id = $1 AND location_id = $2 AND deleted_at IS NULL ORDER BY name, id LIMIT 500',
      [org.id, query.location_id],
    );
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
