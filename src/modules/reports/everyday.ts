/**
 * The everyday reports: medical due and overdue, vaccinations given (lot numbers), foster homes, adoptions with
 * fees and contracts, donations, volunteer hours, message delivery. Each reads the owners' read views
 * (migrations/1300_reports.sql and 0050_module_views.sql). Days are in the organization's time zone.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { invalid } from '../../platform/errors.ts';
import type { Static } from '../../platform/schema.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { checkRange, inRange } from './outcomes.ts';
import type { Cell, Table } from './formats.ts';
import type {
  AdoptionsReport,
  DeliveryReport,
  DonationsReport,
  FosterHomesReport,
  HoursReport,
  MedicalDueReport,
  VaccinationsReport,
} from './schemas.ts';

/** One line of a report's `results`, as its schema declares it. */
type Line<R extends { results: unknown[] }> = R['results'][number];

// --- Medical due and overdue ---------------------------------------------------------------------------

export async function medicalDue(q: Queryable, org: Organization, asOf: string, days: number) {
  if (days < 0 || days > 366) throw invalid({ days: ['must be from 0 to 366'] });
  const { rows } = await sql<
    Line<Static<typeof MedicalDueReport>>
  >`SELECT to_char(d.due_on, 'YYYY-MM-DD') AS due_on, d.due_on < ${asOf}::date AS overdue,
            CASE WHEN d.animal_id IN (SELECT f.animal_id FROM report_foster_spans f WHERE f.organization_id = ${org.id}
                               AND f.started_on <= ${asOf}::date AND (f.ended_on IS NULL OR f.ended_on > ${asOf}::date)) THEN 'In foster'
                 ELSE coalesce(l.name, 'No location') END AS location,
            d.species, d.kind, count(*)::int AS count
       FROM report_medical_due d
       JOIN animal_directory a ON a.organization_id = ${org.id} AND a.id = d.animal_id AND a.deleted_at IS NULL
       LEFT JOIN report_locations l ON l.organization_id = ${org.id} AND l.id = a.location_id
      WHERE d.organization_id = ${org.id} AND d.completed_at IS NULL AND d.due_on <= ${asOf}::date + ${days}::int
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 3, 4, 5`.execute(kx(q));
  return {
    as_of: asOf,
    days,
    time_zone: org.time_zone,
    overdue: rows.filter((r) => r.overdue).reduce((t, r) => t + r.count, 0),
    due: rows.filter((r) => !r.overdue).reduce((t, r) => t + r.count, 0),
    results: rows,
  };
}
export function medicalDueTable(r: Awaited<ReturnType<typeof medicalDue>>, orgName: string): Table {
  return {
    title: `Medical due and overdue as of ${r.as_of} (next ${r.days} days)`,
    subtitle: [orgName, `Overdue: ${r.overdue}. Due: ${r.due}.`],
    columns: [
      { key: 'due_on', label: 'Due on' },
      { key: 'overdue', label: 'Overdue' },
      { key: 'location', label: 'Location' },
      { key: 'species', label: 'Species' },
      { key: 'kind', label: 'Kind' },
      { key: 'count', label: 'Items', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x, overdue: x.overdue ? 'yes' : 'no' })),
  };
}

// --- Vaccinations given (streamed page by page) --------------------------------------------------------

/** A vaccination given, as listed: its wire shape, with the moment as read (a page starts after the last one's). */
export type Vaccination = Omit<Line<Static<typeof VaccinationsReport>>, 'given_at'> & {
  given_at: NonNullable<Selectable<DB['report_medical_records']>['given_at']>;
};

export async function vaccinationsPage(
  q: Queryable,
  org: Organization,
  from: string,
  to: string,
  lot: string | null,
  after: { at: Date; id: string } | null,
  limit: number,
  offset = 0,
): Promise<Vaccination[]> {
  const tz = org.time_zone;
  const { rows } =
    await sql<Vaccination>`SELECT r.id, to_char(r.given_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS given_on, r.given_at, r.animal_id,
       coalesce(a.name, '') AS animal_name, coalesce(a.species, '') AS species, r.name AS vaccine, r.product, r.manufacturer, r.lot,
       to_char(r.expires_on, 'YYYY-MM-DD') AS expires_on, r.given_by
  FROM report_medical_records r
  LEFT JOIN animal_directory a ON a.organization_id = ${org.id} AND a.id = r.animal_id
 WHERE r.organization_id = ${org.id} AND r.kind = 'vaccine' AND ${inRange('r.given_at', from, to, tz)}
   ${lot === null ? sql`` : sql`AND lower(r.lot) = lower(${lot}::text)`}
   ${after === null ? sql`` : sql`AND (r.given_at, r.id) > (${after.at}::timestamptz, ${after.id}::text)`}
 ORDER BY r.given_at, r.id LIMIT ${limit} OFFSET ${offset}`.execute(kx(q));
  return rows;
}

/** Every vaccination of the range, fetched 2,000 at a time (keyset), so a long range is never held whole. */
export async function* allVaccinations(q: Queryable, org: Organization, from: string, to: string, lot: string | null) {
  let after: { at: Date; id: string } | null = null;
  for (;;) {
    const page = await vaccinationsPage(q, org, from, to, lot, after, 2000);
    for (const r of page) yield r;
    const last = page[page.length - 1];
    if (page.length < 2000 || !last) return;
    after = { at: last.given_at, id: last.id };
  }
}

export function vaccinationsTable(q: Queryable, org: Organization, from: string, to: string, lot: string | null): Table {
  async function* rows(): AsyncIterable<Record<string, Cell>> {
    for await (const r of allVaccinations(q, org, from, to, lot)) {
      const { given_at: _at, ...rest } = r;
      yield rest;
    }
  }
  return {
    title: `Vaccinations given, ${from} to ${to}${lot ? ` (lot ${lot})` : ''}`,
    subtitle: [org.name, `Dates in ${org.time_zone}.`],
    columns: [
      { key: 'given_on', label: 'Given on' },
      { key: 'animal_id', label: 'Animal id' },
      { key: 'animal_name', label: 'Animal' },
      { key: 'species', label: 'Species' },
      { key: 'vaccine', label: 'Vaccine' },
      { key: 'product', label: 'Product' },
      { key: 'manufacturer', label: 'Manufacturer' },
      { key: 'lot', label: 'Lot' },
      { key: 'expires_on', label: 'Lot expires' },
      { key: 'given_by', label: 'Given by' },
      { key: 'id', label: 'Record id' },
    ],
    rows: rows(),
  };
}

// --- Foster homes -------------------------------------------------------------------------------------

export async function fosterHomes(q: Queryable, org: Organization, date: string) {
  const { rows } = await sql<
    Line<Static<typeof FosterHomesReport>>
  >`SELECT h.id, h.person_id, coalesce(p.display_name, '') AS foster_name, h.status, h.capacity,
            count(f.id)::int AS current, greatest(h.capacity - count(f.id), 0)::int AS free,
            coalesce(array_agg(coalesce(a.name, f.animal_id) ORDER BY a.name) FILTER (WHERE f.id IS NOT NULL), '{}') AS animals
       FROM report_foster_homes h
       LEFT JOIN people_directory p ON p.organization_id = ${org.id} AND p.id = h.person_id
       LEFT JOIN report_foster_spans f ON f.organization_id = ${org.id} AND f.foster_home_id = h.id
            AND f.started_on <= ${date}::date AND (f.ended_on IS NULL OR f.ended_on > ${date}::date)
       LEFT JOIN animal_directory a ON a.organization_id = ${org.id} AND a.id = f.animal_id
      WHERE h.organization_id = ${org.id}
      GROUP BY h.id, h.person_id, p.display_name, h.status, h.capacity
      ORDER BY foster_name, h.id`.execute(kx(q));
  return {
    date,
    homes: rows.length,
    capacity: rows.filter((r) => r.status === 'active').reduce((t, r) => t + r.capacity, 0),
    animals: rows.reduce((t, r) => t + r.current, 0),
    results: rows,
  };
}
export function fosterTable(r: Awaited<ReturnType<typeof fosterHomes>>, orgName: string): Table {
  return {
    title: `Foster homes on ${r.date}`,
    subtitle: [orgName, `${r.homes} homes; active capacity ${r.capacity}; ${r.animals} animals in foster.`],
    columns: [
      { key: 'foster_name', label: 'Foster' },
      { key: 'status', label: 'Status' },
      { key: 'capacity', label: 'Capacity', numeric: true },
      { key: 'current', label: 'Animals', numeric: true },
      { key: 'free', label: 'Free', numeric: true },
      { key: 'animals', label: 'Animal names' },
      { key: 'id', label: 'Home id' },
    ],
    rows: r.results.map((x) => ({ ...x, animals: x.animals.join(', ') })),
  };
}

// --- Adoptions with fees and contracts ----------------------------------------------------------------

export async function adoptionsReport(q: Queryable, org: Organization, from: string, to: string) {
  checkRange(from, to);
  const { rows } = await sql<
    Omit<Line<Static<typeof AdoptionsReport>>, 'fee_minor' | 'contract_signed_at'> & {
      fee_minor: NonNullable<Selectable<DB['report_adoptions']>['fee_minor']>;
      contract_signed_at: Selectable<DB['report_contracts']>['signed_at'];
    }
  >`SELECT d.id, to_char(d.adopted_at AT TIME ZONE ${org.time_zone}, 'YYYY-MM-DD') AS adopted_on, d.animal_id,
            coalesce(a.name, '') AS animal_name,
            d.person_id AS adopter_id, coalesce(p.display_name, '') AS adopter_name, d.status, d.fee_minor, d.currency, d.fee_rule,
            d.contract_id, c.signed_at AS contract_signed_at
       FROM report_adoptions d
       LEFT JOIN animal_directory a ON a.organization_id = ${org.id} AND a.id = d.animal_id
       LEFT JOIN people_directory p ON p.organization_id = ${org.id} AND p.id = d.person_id
       LEFT JOIN report_contracts c ON c.organization_id = ${org.id} AND c.id = d.contract_id
      WHERE d.organization_id = ${org.id} AND d.adopted_at IS NOT NULL AND ${inRange('d.adopted_at', from, to, org.time_zone)}
      ORDER BY d.adopted_at, d.id`.execute(kx(q));
  const results = rows.map((r) => ({ ...r, fee_minor: Number(r.fee_minor) }));
  const totals = new Map<string, { currency: string; adoptions: number; fees_minor: number }>();
  for (const r of results) {
    const t = totals.get(r.currency) ?? { currency: r.currency, adoptions: 0, fees_minor: 0 };
    t.adoptions++;
    t.fees_minor += r.fee_minor;
    totals.set(r.currency, t);
  }
  return { from, to, time_zone: org.time_zone, totals: [...totals.values()], results };
}
export function adoptionsTable(r: Awaited<ReturnType<typeof adoptionsReport>>, orgName: string): Table {
  return {
    title: `Adoptions, ${r.from} to ${r.to}`,
    subtitle: [orgName, ...r.totals.map((t) => `${t.adoptions} adoptions, fees ${t.fees_minor} (minor units, ${t.currency})`)],
    columns: [
      { key: 'adopted_on', label: 'Adopted on' },
      { key: 'animal_name', label: 'Animal' },
      { key: 'adopter_name', label: 'Adopter' },
      { key: 'status', label: 'Status' },
      { key: 'fee_minor', label: 'Fee (minor units)', numeric: true },
      { key: 'currency', label: 'Currency' },
      { key: 'fee_rule', label: 'Fee rule' },
      { key: 'contract_id', label: 'Contract' },
      { key: 'contract_signed_at', label: 'Contract signed at' },
      { key: 'id', label: 'Adoption id' },
    ],
    rows: r.results.map((x) => ({ ...x, contract_signed_at: x.contract_signed_at ? new Date(x.contract_signed_at).toISOString() : null })),
  };
}

// --- Donations by campaign, type and month ------------------------------------------------------------

export async function donationsReport(q: Queryable, org: Organization, from: string, to: string) {
  checkRange(from, to);
  const { rows } = await sql<
    Omit<Line<Static<typeof DonationsReport>>, 'amount_minor'> & { amount_minor: string }
  >`SELECT to_char(d.date, 'YYYY-MM') AS month, d.campaign_id, c.name AS campaign, d.type, d.currency,
            count(*)::int AS count, sum(d.amount_minor)::text AS amount_minor
       FROM donation_ledger d
       LEFT JOIN report_campaigns c ON c.organization_id = ${org.id} AND c.id = d.campaign_id
      WHERE d.organization_id = ${org.id} AND d.deleted_at IS NULL AND d.date BETWEEN ${from}::date AND ${to}::date
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 3 NULLS FIRST, 4, 5`.execute(kx(q));
  const results = rows.map((r) => ({ ...r, amount_minor: Number(r.amount_minor) }));
  const totals = new Map<string, { currency: string; count: number; amount_minor: number }>();
  for (const r of results) {
    const t = totals.get(r.currency) ?? { currency: r.currency, count: 0, amount_minor: 0 };
    t.count += r.count;
    t.amount_minor += r.amount_minor;
    totals.set(r.currency, t);
  }
  return { from, to, totals: [...totals.values()], results };
}
export function donationsTable(r: Awaited<ReturnType<typeof donationsReport>>, orgName: string): Table {
  return {
    title: `Donations, ${r.from} to ${r.to}`,
    subtitle: [orgName, ...r.totals.map((t) => `${t.count} gifts, ${t.amount_minor} (minor units, ${t.currency})`)],
    columns: [
      { key: 'month', label: 'Month' },
      { key: 'campaign', label: 'Campaign' },
      { key: 'type', label: 'Type' },
      { key: 'currency', label: 'Currency' },
      { key: 'count', label: 'Gifts', numeric: true },
      { key: 'amount_minor', label: 'Amount (minor units)', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x, campaign: x.campaign ?? '(no campaign)' })),
    notes: ['Amounts are integer minor units (cents), totalled per currency; currencies are never added together.'],
  };
}

// --- Volunteer hours ----------------------------------------------------------------------------------

export async function volunteerHours(q: Queryable, org: Organization, from: string, to: string) {
  checkRange(from, to);
  const { rows } = await sql<
    Line<Static<typeof HoursReport>>
  >`SELECT b.person_id, coalesce(p.display_name, '') AS volunteer, b.role_id, r.name AS role, count(*)::int AS shifts,
            round((sum(extract(epoch FROM b.ends_at - b.starts_at)) / 3600)::numeric, 2)::float8 AS hours
       FROM report_shift_bookings b
       LEFT JOIN people_directory p ON p.organization_id = ${org.id} AND p.id = b.person_id
       LEFT JOIN report_shift_roles r ON r.organization_id = ${org.id} AND r.id = b.role_id
      WHERE b.organization_id = ${org.id} AND b.status = 'booked' AND b.attended IS DISTINCT FROM false
        AND ${inRange('b.starts_at', from, to, org.time_zone)}
      GROUP BY 1, 2, 3, 4 ORDER BY 2, 1, 4 NULLS FIRST`.execute(kx(q));
  return {
    from,
    to,
    time_zone: org.time_zone,
    rule: 'Hours of booked shift windows starting in the range, not cancelled and not marked absent (attended false).',
    total_hours: Math.round(rows.reduce((t, r) => t + r.hours, 0) * 100) / 100,
    results: rows,
  };
}
export function hoursTable(r: Awaited<ReturnType<typeof volunteerHours>>, orgName: string): Table {
  return {
    title: `Volunteer hours, ${r.from} to ${r.to}`,
    subtitle: [orgName, `Total: ${r.total_hours} hours.`],
    columns: [
      { key: 'volunteer', label: 'Volunteer' },
      { key: 'role', label: 'Role' },
      { key: 'shifts', label: 'Shifts', numeric: true },
      { key: 'hours', label: 'Hours', numeric: true },
      { key: 'person_id', label: 'Person id' },
    ],
    rows: r.results.map((x) => ({ ...x, role: x.role ?? '(no role)' })),
    notes: [r.rule],
  };
}

// --- Message delivery ---------------------------------------------------------------------------------

export async function messageDelivery(q: Queryable, org: Organization, from: string, to: string) {
  checkRange(from, to);
  const { rows } = await sql<Line<Static<typeof DeliveryReport>>>`SELECT m.category, count(*)::int AS total,
            count(*) FILTER (WHERE m.status IN ('sent', 'delivered'))::int AS sent,
            count(*) FILTER (WHERE m.status = 'bounced')::int AS bounced,
            count(*) FILTER (WHERE m.status = 'suppressed')::int AS suppressed,
            count(*) FILTER (WHERE m.status = 'failed')::int AS failed,
            count(*) FILTER (WHERE m.status IN ('queued', 'sending'))::int AS pending
       FROM report_messages m
      WHERE m.organization_id = ${org.id} AND m.direction = 'outbound' AND ${inRange('m.created_at', from, to, org.time_zone)}
      GROUP BY 1 ORDER BY 1`.execute(kx(q));
  return { from, to, time_zone: org.time_zone, results: rows };
}
export function deliveryTable(r: Awaited<ReturnType<typeof messageDelivery>>, orgName: string): Table {
  return {
    title: `Message delivery, ${r.from} to ${r.to}`,
    subtitle: [orgName, 'Outbound messages by the day they were queued; sent includes delivered.'],
    columns: [
      { key: 'category', label: 'Category' },
      { key: 'total', label: 'Messages', numeric: true },
      { key: 'sent', label: 'Sent', numeric: true },
      { key: 'bounced', label: 'Bounced', numeric: true },
      { key: 'suppressed', label: 'Suppressed', numeric: true },
      { key: 'failed', label: 'Failed', numeric: true },
      { key: 'pending', label: 'Pending', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x })),
  };
}
