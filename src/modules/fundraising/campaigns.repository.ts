import type { Queryable } from '../../platform/db/db.ts';
import { kx, runPrepared, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';
import type { CampaignOut } from './schemas.ts';

const COLS = [
  'id',
  'name',
  'description',
  'currency',
  'goal_minor',
  'starts_on',
  'ends_on',
  'status',
  'closed_at',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;
type Stored = Pick<Selectable<DB['fundraising_campaigns']>, (typeof COLS)[number]>;
/** A campaign as stored: the wire shape's own fields, with the goal in minor units (the totals are computed). */
export type CampaignRow = Omit<Pick<Selectable<DB['fundraising_campaigns']>, (typeof COLS)[number]>, 'status' | 'custom_fields'> & {
  status: CampaignOut['status'];
  custom_fields: Record<string, string | number | boolean>;
};
const toCampaignRow = (r: Stored): CampaignRow => ({
  ...r,
  status: r.status as CampaignOut['status'],
  custom_fields: (r.custom_fields ?? {}) as CampaignRow['custom_fields'],
});

export async function campaignById(q: Queryable, orgId: string, id: string, lock = false) {
  let one = kx(q).selectFrom('fundraising_campaigns').select(COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toCampaignRow(row) : null;
}
export async function campaignExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const exists = kx(q).selectFrom('fundraising_campaigns').select('id').where('organization_id', '=', orgId).where('id', '=', id);
  return (await runPrepared(q, 'fr_campaign_exists', exists)).length > 0;
}
export async function listCampaigns(q: Queryable, orgId: string, f: { status?: string; q?: string }, limit: number, offset: number) {
  let list = kx(q).selectFrom('fundraising_campaigns').select(COLS).where('organization_id', '=', orgId);
  if (f.status) list = list.where('status', '=', f.status);
  if (f.q) {
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    list = list.where('name', 'ilike', pattern);
  }
  const rows = await list
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toCampaignRow);
}
export async function insertCampaign(
  q: Queryable,
  orgId: string,
  c: {
    id: string;
    name: string;
    description: string | null;
    currency: string;
    goal_minor: bigint | null;
    starts_on: string | null;
    ends_on: string | null;
    custom_fields: object;
  },
) {
  await kx(q)
    .insertInto('fundraising_campaigns')
    .values({
      organization_id: orgId,
      id: c.id,
      name: c.name,
      description: c.description,
      currency: c.currency,
      goal_minor: c.goal_minor?.toString() ?? null,
      starts_on: c.starts_on,
      ends_on: c.ends_on,
      custom_fields: JSON.stringify(c.custom_fields),
    })
    .execute();
}
/** A column's parameter: custom fields as JSON text, money (bigint minor units) as decimal text. */
export const encodeColumn = (column: string, v: unknown): unknown =>
  column === 'custom_fields' ? JSON.stringify(v) : typeof v === 'bigint' ? v.toString() : v;
const UPDATABLE = ['name', 'description', 'goal_minor', 'starts_on', 'ends_on', 'custom_fields', 'status', 'closed_at'] as const;
export async function updateCampaign(q: Queryable, orgId: string, id: string, patch: Partial<Record<(typeof UPDATABLE)[number], unknown>>) {
  const set = Object.fromEntries(UPDATABLE.filter((c) => c in patch).map((c) => [c, encodeColumn(c, patch[c])]));
  if (!Object.keys(set).length) return;
  await kx(q)
    .updateTable('fundraising_campaigns')
    .set({ ...(set as Updateable<DB['fundraising_campaigns']>), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

const ledgerTotals = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('donation_ledger')
    // The ledger is a view (its columns read as nullable); a ledger row always has its donation's currency and type.
    .select([
      sql<string>`currency`.as('currency'),
      sql<string>`sum(amount_minor)::text`.as('amount_minor'),
      sql<string>`count(*)::text`.as('count'),
    ])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null);
const raised = (q: Queryable, orgId: string, campaignIds: string[]) =>
  ledgerTotals(q, orgId)
    .select(sql<string>`campaign_id`.as('campaign_id'))
    .where('campaign_id', 'in', campaignIds)
    .groupBy(['campaign_id', 'currency'])
    .orderBy('campaign_id')
    .orderBy('currency');
/** A campaign's ledger total in one currency. */
export type RaisedRow = Awaited<ReturnType<ReturnType<typeof raised>['execute']>>[number];
/** Ledger totals per campaign and currency (settled auction lots are ledger donations too). */
export async function raisedFor(q: Queryable, orgId: string, campaignIds: string[]): Promise<RaisedRow[]> {
  if (!campaignIds.length) return [];
  return raised(q, orgId, campaignIds).execute();
}
export async function summaryRows(q: Queryable, orgId: string, campaignId: string) {
  const k = kx(q);
  const source = sql<string>`CASE WHEN source = 'auction' THEN 'auction' ELSE 'donation' END`;
  const [byType, bySource, donors, auctions] = await Promise.all([
    ledgerTotals(q, orgId)
      .select(sql<string>`type`.as('type'))
      .where('campaign_id', '=', campaignId)
      .groupBy(['type', 'currency'])
      .orderBy('type')
      .orderBy('currency')
      .execute(),
    ledgerTotals(q, orgId)
      .select(source.as('source'))
      .where('campaign_id', '=', campaignId)
      .groupBy([source, 'currency'])
      .orderBy(source)
      .orderBy('currency')
      .execute(),
    k
      .selectFrom('donation_ledger')
      .select(sql<string>`count(DISTINCT donor_id)::text`.as('n'))
      .where('organization_id', '=', orgId)
      .where('campaign_id', '=', campaignId)
      .where('deleted_at', 'is', null)
      .execute(),
    k
      .selectFrom('auctions as a')
      .select([
        'a.id',
        'a.name',
        'a.status',
        'a.currency',
        sql<string>`COALESCE((SELECT sum(d.amount_minor) FROM donation_ledger d JOIN auction_lots l ON l.organization_id =
              d.organization_id AND l.id = d.source_id
                         WHERE d.organization_id = a.organization_id AND d.source = 'auction' AND d.deleted_at IS NULL AND
                         l.auction_id = a.id), 0)::text`.as('raised'),
        sql<string>`COALESCE((SELECT sum(l.high_bid_minor) FROM auction_lots l WHERE l.organization_id = a.organization_id AND
              l.auction_id = a.id AND l.status = 'open' AND a.status = 'open'), 0)::text`.as('open_high_bids'),
        sql<string>`(SELECT count(*) FROM auction_lots l WHERE l.organization_id = a.organization_id AND l.auction_id = a.id)::text`.as(
          'lots',
        ),
      ])
      .where('a.organization_id', '=', orgId)
      .where('a.campaign_id', '=', campaignId)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute(),
  ]);
  return { byType, bySource, donorCount: Number(donors[0]?.n ?? 0), auctions };
}
export async function openAuctionCount(q: Queryable, orgId: string, campaignId: string) {
  const r = await kx(q)
    .selectFrom('auctions')
    .select(sql<string>`count(*)::text`.as('n'))
    .where('organization_id', '=', orgId)
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
