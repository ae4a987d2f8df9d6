import { Where } from '../../platform/db/sql.ts';
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
  /** False for a key without read on People: `q` then matches names only, never the email (contact details). */
  qMatchesEmail: boolean;
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

/** What a donors-list row reads from the person (`p`) and their kept giving (`g`, null for a person who never gave). */
const DONOR_COLUMNS = (lifetimeIn: string) =>
  `p.id AS person_id, p.first_name, p.last_name, NULLIF(p.email, '') AS email, 'donor' = ANY(p.roles) AS has_donor_role,
   g.first_gift AS first_gift_date, g.last_gift AS last_gift_date, COALESCE(g.gift_count, 0)::int AS gift_count,
   COALESCE(g.recurring_count > 0, false) AS recurring, g.last_recurring AS last_recurring_date, ${lifetimeIn} AS lifetime_in`;

/**
 * People with the donor role or any gift on the ledger, with their giving. The giving is the donations module's kept
 * row per donor (`donor_giving_ledger`, exact, written in the gift's own transaction), so no request aggregates the
 * ledger. The default order (most recent gift first, never-gave last) pages straight from that row's
 * (last gift, donor) index: the donors who gave, newest gift first, then — only once they run out — the donor-role
 * people who never gave, by id. Other orders and `q` read every donor of the organization once (one row each).
 */
export async function listDonors(q: Queryable, orgId: string, f: DonorFilter, limit: number, offset: number): Promise<DonorRow[]> {
  const w = new Where(orgId, 'p.organization_id');
  const currency = w.param(f.currency);
  const lifetimeIn = `COALESCE((g.lifetime ->> ${currency})::bigint, 0)`;
  w.and('p.deleted_at IS NULL');
  if (f.personId !== undefined) w.eq('p.id', f.personId);
  if (f.q) {
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    const email = f.qMatchesEmail;
    w.and((p) => {
      const like = p(pattern);
      const names = `p.first_name || ' ' || p.last_name ILIKE ${like}`;
      return email ? `(${names} OR p.email ILIKE ${like})` : names;
    });
  }
  if (f.minLifetimeMinor !== undefined) {
    const min = f.minLifetimeMinor.toString();
    w.and((p) => `${lifetimeIn} >= ${p(min)}`);
  }
  if (f.gaveSince) w.and((p) => `g.last_gift >= ${p(f.gaveSince)}::date`);
  if (f.lapsedSince) w.and((p) => `g.last_gift < ${p(f.lapsedSince)}::date`);
  if (f.recurring === true) w.and('COALESCE(g.recurring_count > 0, false)');
  if (f.recurring === false) w.and('NOT COALESCE(g.recurring_count > 0, false)');
  const giving = 'donor_giving_ledger g ON g.organization_id = p.organization_id AND g.donor_id = p.id';
  const sort = f.sort in SORTS ? f.sort : '-last_gift';
  if (sort !== '-last_gift' || f.q || f.personId !== undefined) {
    return q.query<DonorRow>(
      `SELECT ${DONOR_COLUMNS(lifetimeIn)} FROM people_directory p LEFT JOIN ${giving}
        WHERE ${w.sql} AND ('donor' = ANY(p.roles) OR g.donor_id IS NOT NULL)
        ORDER BY ${SORTS[sort]} ${w.page(limit + 1, offset)}`,
      w.params,
    );
  }
  // Those who gave, in the index's order: the first offset + limit + 1 of them.
  const want = offset + limit + 1;
  const gave = await q.query<DonorRow>(
    `SELECT ${DONOR_COLUMNS(lifetimeIn)} FROM donor_giving_ledger g
       JOIN people_directory p ON p.organization_id = g.organization_id AND p.id = g.donor_id
      WHERE ${w.sql} AND g.organization_id = $1
      ORDER BY g.last_gift DESC, g.donor_id LIMIT ${want}`,
    w.params,
  );
  if (gave.length >= want) return gave.slice(offset);
  // They ran out: the page goes on with the donor-role people who never gave.
  const skip = Math.max(0, offset - gave.length);
  const never = await q.query<DonorRow>(
    `SELECT ${DONOR_COLUMNS(lifetimeIn)} FROM people_directory p LEFT JOIN ${giving}
      WHERE ${w.sql} AND 'donor' = ANY(p.roles) AND g.donor_id IS NULL
      ORDER BY p.id ${w.page(limit + 1 - Math.max(0, gave.length - offset), skip)}`,
    w.params,
  );
  return [...gave.slice(offset), ...never];
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
