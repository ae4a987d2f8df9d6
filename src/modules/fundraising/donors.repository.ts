import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type InferResult, type RawBuilder } from '../../platform/db/kysely.ts';

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
const SORTS: Record<string, RawBuilder<unknown>> = {
  name: sql`p.last_name, p.first_name, p.id`,
  '-name': sql`p.last_name DESC, p.first_name DESC, p.id DESC`,
  lifetime: sql`lifetime_in, p.id`,
  '-lifetime': sql`lifetime_in DESC, p.id`,
  last_gift: sql`g.last_gift NULLS LAST, p.id`,
  '-last_gift': sql`g.last_gift DESC NULLS LAST, p.id`,
  first_gift: sql`g.first_gift NULLS LAST, p.id`,
  '-first_gift': sql`g.first_gift DESC NULLS LAST, p.id`,
  gift_count: sql`gift_count, p.id`,
  '-gift_count': sql`gift_count DESC, p.id`,
};

/**
 * What a donors-list row reads from the person (`p`) and their kept giving (`g`, null for a person who never gave).
 * Both are views (every column reads as nullable): a listed person always has an id and names.
 */
const donorColumns = (lifetimeIn: RawBuilder<string>) =>
  [
    sql<string>`p.id`.as('person_id'),
    sql<string>`p.first_name`.as('first_name'),
    sql<string>`p.last_name`.as('last_name'),
    sql<string | null>`NULLIF(p.email, '')`.as('email'),
    sql<boolean>`'donor' = ANY(p.roles)`.as('has_donor_role'),
    sql<string | null>`g.first_gift`.as('first_gift_date'),
    sql<string | null>`g.last_gift`.as('last_gift_date'),
    sql<number>`COALESCE(g.gift_count, 0)::int`.as('gift_count'),
    sql<boolean>`COALESCE(g.recurring_count > 0, false)`.as('recurring'),
    sql<string | null>`g.last_recurring`.as('last_recurring_date'),
    lifetimeIn.as('lifetime_in'),
  ] as const;

/**
 * People with the donor role or any gift on the ledger, with their giving. The giving is the donations module's kept
 * row per donor (`donor_giving_ledger`, exact, written in the gift's own transaction), so no request aggregates the
 * ledger. The default order (most recent gift first, never-gave last) pages straight from that row's
 * (last gift, donor) index: the donors who gave, newest gift first, then — only once they run out — the donor-role
 * people who never gave, by id. Other orders and `q` read every donor of the organization once (one row each).
 */
export async function listDonors(q: Queryable, orgId: string, f: DonorFilter, limit: number, offset: number) {
  const lifetimeIn = sql<string>`COALESCE((g.lifetime ->> ${f.currency})::bigint, 0)`;
  const where = [sql<boolean>`p.organization_id = ${orgId}`, sql<boolean>`p.deleted_at IS NULL`];
  if (f.personId !== undefined) where.push(sql<boolean>`p.id = ${f.personId}`);
  if (f.q) {
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    const names = sql<boolean>`p.first_name || ' ' || p.last_name ILIKE ${pattern}`;
    where.push(f.qMatchesEmail ? sql<boolean>`(${names} OR p.email ILIKE ${pattern})` : names);
  }
  if (f.minLifetimeMinor !== undefined) where.push(sql<boolean>`${lifetimeIn} >= ${f.minLifetimeMinor.toString()}`);
  if (f.gaveSince) where.push(sql<boolean>`g.last_gift >= ${f.gaveSince}::date`);
  if (f.lapsedSince) where.push(sql<boolean>`g.last_gift < ${f.lapsedSince}::date`);
  if (f.recurring === true) where.push(sql<boolean>`COALESCE(g.recurring_count > 0, false)`);
  if (f.recurring === false) where.push(sql<boolean>`NOT COALESCE(g.recurring_count > 0, false)`);
  const people = kx(q)
    .selectFrom('people_directory as p')
    .leftJoin('donor_giving_ledger as g', (j) => j.onRef('g.organization_id', '=', 'p.organization_id').onRef('g.donor_id', '=', 'p.id'))
    .select(donorColumns(lifetimeIn))
    .where((e) => e.and(where));
  const sort = f.sort in SORTS ? f.sort : '-last_gift';
  if (sort !== '-last_gift' || f.q || f.personId !== undefined) {
    return people
      .where(sql<boolean>`('donor' = ANY(p.roles) OR g.donor_id IS NOT NULL)`)
      .orderBy(SORTS[sort] ?? sql`p.id`)
      .limit(limit + 1)
      .offset(offset)
      .execute();
  }
  // Those who gave, in the index's order: the first offset + limit + 1 of them.
  const want = offset + limit + 1;
  const gave = await kx(q)
    .selectFrom('donor_giving_ledger as g')
    .innerJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'g.organization_id').onRef('p.id', '=', 'g.donor_id'))
    .select(donorColumns(lifetimeIn))
    .where((e) => e.and(where))
    .where('g.organization_id', '=', orgId)
    .orderBy('g.last_gift', 'desc')
    .orderBy('g.donor_id')
    .limit(want)
    .execute();
  if (gave.length >= want) return gave.slice(offset);
  // They ran out: the page goes on with the donor-role people who never gave.
  const skip = Math.max(0, offset - gave.length);
  const never = await people
    .where(sql<boolean>`'donor' = ANY(p.roles)`)
    .where('g.donor_id', 'is', null)
    .orderBy('p.id')
    .limit(limit + 1 - Math.max(0, gave.length - offset))
    .offset(skip)
    .execute();
  return [...gave.slice(offset), ...never];
}
/** A donors-list row. */
export type DonorRow = Awaited<ReturnType<typeof listDonors>>[number];

export async function lifetimeFor(q: Queryable, orgId: string, personIds: string[]) {
  if (!personIds.length) return [];
  // The ledger is a view (its columns read as nullable); a ledger row always has its donor and currency.
  return kx(q)
    .selectFrom('donation_ledger')
    .select([
      sql<string>`donor_id`.as('donor_id'),
      sql<string>`currency`.as('currency'),
      sql<string>`sum(amount_minor)::text`.as('amount_minor'),
      sql<string>`count(*)::text`.as('count'),
    ])
    .where('organization_id', '=', orgId)
    .where('donor_id', '=', sql<string>`ANY(${personIds})`)
    .where('deleted_at', 'is', null)
    .groupBy(['donor_id', 'currency'])
    .orderBy('donor_id')
    .orderBy('currency')
    .execute();
}

const gifts = (q: Queryable, orgId: string, personId: string, year: number) =>
  kx(q)
    .selectFrom('donation_ledger as d')
    .leftJoin('fundraising_campaigns as c', (j) =>
      j.onRef('c.organization_id', '=', 'd.organization_id').onRef('c.id', '=', 'd.campaign_id'),
    )
    .leftJoin('auction_lots as l', (j) =>
      j.on('d.source', '=', 'auction').onRef('l.organization_id', '=', 'd.organization_id').onRef('l.id', '=', 'd.source_id'),
    )
    .leftJoin('auctions as a', (j) => j.onRef('a.organization_id', '=', 'l.organization_id').onRef('a.id', '=', 'l.auction_id'))
    // The ledger is a view (its columns read as nullable): a gift on it always has these.
    .select([
      sql<string>`d.id`.as('id'),
      sql<string>`d.date`.as('date'),
      sql<string>`d.currency`.as('currency'),
      sql<string>`d.amount_minor::text`.as('amount_minor'),
      sql<string>`d.type`.as('type'),
      sql<string>`d.payment_method`.as('payment_method'),
      'c.name as campaign',
      sql<string>`d.source`.as('source'),
      'l.title as lot_title',
      'l.lot_number',
      'a.name as auction_name',
      sql<string | null>`l.fair_market_value_minor::text`.as('fair_market_value_minor'),
    ])
    .where('d.organization_id', '=', orgId)
    .where('d.donor_id', '=', personId)
    .where('d.deleted_at', 'is', null)
    .where(sql<boolean>`d.date >= make_date(${year}, 1, 1) AND d.date < make_date(${year} + 1, 1, 1)`)
    .orderBy('d.date')
    .orderBy('d.created_at')
    .orderBy('d.id');
/** A gift on a donor's year-end statement. */
export type StatementGiftRow = InferResult<ReturnType<typeof gifts>>[number];
export async function giftsInYear(q: Queryable, orgId: string, personId: string, year: number): Promise<StatementGiftRow[]> {
  return gifts(q, orgId, personId, year).execute();
}
