import type { Queryable } from '../../platform/db/db.ts';

export interface DonorRow {
  person_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  has_donor_role: boolean;
  first_gift_date: string | null;
  last_gift_date: string | null;
  gift_count: number;
  recurring: boolean;
  last_recurring_date: string | null;
}
export interface DonorFilter {
  personId?: string;
  q?: string;
  currency: string;
  minLifetimeMinor?: bigint;
  gaveSince?: string;
  lapsedSince?: string;
  recurring?: boolean;
  sort: string;
}
const SORTS: Record<string, string> = {
  name: 'p.last_name, p.first_name, p.id',
  '-name': 'p.last_name DESC, p.first_name DESC, p.id DESC',
  lifetime: 'lifetime_in, p.id',
  '-lifetime': 'lifetime_in DESC, p.id',
  last_gift: 'g.last_gift NULLS LAST, p.id',
  '-last_gift': 'g.last_gift DESC NULLS LAST, p.id',
  first_gift: 'g.first_gift NULLS LAST, p.id',
  '-first_gift': 'g.first_gift DESC NULLS LAST, p.id',
  gift_count: 'gift_count, p.id',
  '-gift_count': 'gift_count DESC, p.id',
};

/** People with the donor role or any gift on the ledger, with their giving computed from it. */
export async function listDonors(q: Queryable, orgId: string, f: DonorFilter, limit: number, offset: number) {
  const params: unknown[] = [orgId, f.currency];
  const where = ['p.organization_id = $1', 'p.deleted_at IS NULL', "('donor' = ANY(p.roles) OR g.donor_id IS NOT NULL)"];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.personId !== undefined) add('p.id = ?', f.personId);
  if (f.q) add("(p.first_name || ' ' || p.last_name ILIKE ? OR p.email ILIKE ?)", `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
  if (f.minLifetimeMinor !== undefined) add('COALESCE(g.lifetime_in, 0) >= ?', f.minLifetimeMinor.toString());
  if (f.gaveSince) add('g.last_gift >= ?::date', f.gaveSince);
  if (f.lapsedSince) add('g.last_gift < ?::date', f.lapsedSince);
  if (f.recurring === true) where.push('COALESCE(g.recurring, false)');
  if (f.recurring === false) where.push('NOT COALESCE(g.recurring, false)');
  params.push(limit + 1, offset);
  return q.query<DonorRow>(
    `WITH g AS (
       SELECT donor_id, min(date) AS first_gift, max(date) AS last_gift, count(*) AS gift_count, bool_or(type = 'recurring') AS recurring,
              max(date) FILTER (WHERE type = 'recurring') AS last_recurring, COALESCE(sum(amount_minor) FILTER (WHERE currency =
              $2), 0) AS lifetime_in
         FROM donation_ledger WHERE organization_id = $1 AND deleted_at IS NULL GROUP BY donor_id)
     SELECT p.id AS person_id, p.first_name, p.last_name, NULLIF(p.email, '') AS email, 'donor' = ANY(p.roles) AS has_donor_role,
            g.first_gift AS first_gift_date, g.last_gift AS last_gift_date, COALESCE(g.gift_count, 0)::int AS gift_count,
            COALESCE(g.recurring, false) AS recurring, g.last_recurring AS last_recurring_date, COALESCE(g.lifetime_in, 0) AS lifetime_in
       FROM people_directory p LEFT JOIN g ON g.donor_id = p.id
      WHERE ${where.join(' AND ')}
      ORDER BY ${SORTS[f.sort] ?? SORTS['-last_gift']} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}
export async function lifetimeFor(q: Queryable, orgId: string, personIds: string[]) {
  if (!personIds.length) return [];
  return q.query<{ donor_id: string; currency: string; amount_minor: string; count: string }>(
    `SELECT donor_id, currency, sum(amount_minor)::text AS amount_minor, count(*)::text AS count FROM donation_ledger
      WHERE organization_id = $1 AND donor_id = ANY($2) AND deleted_at IS NULL GROUP BY donor_id, currency ORDER BY donor_id, currency`,
    [orgId, personIds],
  );
}

export interface StatementGiftRow {
  id: string;
  date: string;
  currency: string;
  amount_minor: string;
  type: string;
  payment_method: string;
  campaign: string | null;
  source: string;
  lot_title: string | null;
  lot_number: number | null;
  auction_name: string | null;
  fair_market_value_minor: string | null;
}
export async function giftsInYear(q: Queryable, orgId: string, personId: string, year: number) {
  return q.query<StatementGiftRow>(
    `SELECT d.id, d.date, d.currency, d.amount_minor::text, d.type, d.payment_method, c.name AS campaign, d.source,
            l.title AS lot_title, l.lot_number, a.name AS auction_name, l.fair_market_value_minor::text
       FROM donation_ledger d
       LEFT JOIN fundraising_campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
       LEFT JOIN auction_lots l ON d.source = 'auction' AND l.organization_id = d.organization_id AND l.id = d.source_id
       LEFT JOIN auctions a ON a.organization_id = l.organization_id AND a.id = l.auction_id
      WHERE d.organization_id = $1 AND d.donor_id = $2 AND d.deleted_at IS NULL AND d.date >= make_date($3, 1, 1) AND d.date <
      make_date($3 + 1, 1, 1)
      ORDER BY d.date, d.created_at, d.id`,
    [orgId, personId, year],
  );
}
