import { setClause, Where } from '../../platform/db/sql.ts';
import type { Queryable } from '../../platform/db/db.ts';
import type { CampaignOut } from './schemas.ts';

/** A campaign as stored: the wire shape's own fields, with the goal in minor units (the totals are computed). */
export type CampaignRow = Pick<
  CampaignOut,
  'id' | 'name' | 'description' | 'currency' | 'starts_on' | 'ends_on' | 'status' | 'closed_at' | 'created_at' | 'updated_at'
> & {
  goal_minor: string | null;
  custom_fields: Record<string, string | number | boolean>;
};
const COLS = 'id, name, description, currency, goal_minor, starts_on, ends_on, status, closed_at, custom_fields, created_at, updated_at';

export async function campaignById(q: Queryable, orgId: string, id: string, lock = false) {
  return (
    (
      await q.query<CampaignRow>(
        `SELECT ${COLS} FROM fundraising_campaigns WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function campaignExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (
    (await q.prepared('fr_campaign_exists', 'SELECT 1 FROM fundraising_campaigns WHERE organization_id = $1 AND id = $2', [orgId, id]))
      .length > 0
  );
}
export async function listCampaigns(q: Queryable, orgId: string, f: { status?: string; q?: string }, limit: number, offset: number) {
  const w = new Where(orgId);
  if (f.status) w.eq('status', f.status);
  if (f.q) {
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    w.and((p) => `name ILIKE ${p(pattern)}`);
  }
  return q.query<CampaignRow>(
    `SELECT ${COLS} FROM fundraising_campaigns WHERE ${w.sql} ORDER BY created_at DESC, id DESC ${w.page(limit + 1, offset)}`,
    w.params,
  );
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
  await q.query(
    'INSERT INTO fundraising_campaigns (organization_id, id, name, description, currency, goal_minor, starts_on, ends_on, ' +
      'custom_fields) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)',
    [
      orgId,
      c.id,
      c.name,
      c.description,
      c.currency,
      c.goal_minor?.toString() ?? null,
      c.starts_on,
      c.ends_on,
      JSON.stringify(c.custom_fields),
    ],
  );
}
/** A column's parameter: custom fields as JSON text, money (bigint minor units) as decimal text. */
export const encodeColumn = (column: string, v: unknown): unknown =>
  column === 'custom_fields' ? JSON.stringify(v) : typeof v === 'bigint' ? v.toString() : v;
const UPDATABLE = ['name', 'description', 'goal_minor', 'starts_on', 'ends_on', 'custom_fields', 'status', 'closed_at'] as const;
export async function updateCampaign(q: Queryable, orgId: string, id: string, patch: Partial<Record<(typeof UPDATABLE)[number], unknown>>) {
  const set = setClause(patch, UPDATABLE, 3, encodeColumn);
  if (set.sql)
    await q.query(`UPDATE fundraising_campaigns SET ${set.sql}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [
      orgId,
      id,
      ...set.params,
    ]);
}

export interface RaisedRow {
  campaign_id: string;
  currency: string;
  amount_minor: string;
  count: string;
}
/** Ledger totals per campaign and currency (settled auction lots are ledger donations too). */
export async function raisedFor(q: Queryable, orgId: string, campaignIds: string[]) {
  if (!campaignIds.length) return [];
  return q.query<RaisedRow>(
    `SELECT campaign_id, currency, sum(amount_minor)::text AS amount_minor, count(*)::text AS count
       FROM donation_ledger WHERE organization_id = $1 AND campaign_id = ANY($2) AND deleted_at IS NULL
      GROUP BY campaign_id, currency ORDER BY campaign_id, currency`,
    [orgId, campaignIds],
  );
}
export async function summaryRows(q: Queryable, orgId: string, campaignId: string) {
  const [byType, bySource, donors, auctions] = await Promise.all([
    q.query<{ type: string; currency: string; amount_minor: string; count: string }>(
      `SELECT type, currency, sum(amount_minor)::text AS amount_minor, count(*)::text AS count FROM donation_ledger
        WHERE organization_id = $1 AND campaign_id = $2 AND deleted_at IS NULL GROUP BY type, currency ORDER BY type, currency`,
      [orgId, campaignId],
    ),
    q.query<{ source: string; currency: string; amount_minor: string; count: string }>(
      `SELECT CASE WHEN source = 'auction' THEN 'auction' ELSE 'donation' END AS source, currency, sum(amount_minor)::text AS
        amount_minor, count(*)::text AS count FROM donation_ledger
        WHERE organization_id = $1 AND campaign_id = $2 AND deleted_at IS NULL GROUP BY 1, currency ORDER BY 1, currency`,
      [orgId, campaignId],
    ),
    q.query<{ n: string }>(
      'SELECT count(DISTINCT donor_id)::text AS n FROM donation_ledger WHERE organization_id = $1 AND campaign_id = $2 AND ' +
        'deleted_at IS NULL',
      [orgId, campaignId],
    ),
    q.query<{ id: string; name: string; status: string; currency: string; raised: string; open_high_bids: string; lots: string }>(
      `SELECT a.id, a.name, a.status, a.currency,
              COALESCE((SELECT sum(d.amount_minor) FROM donation_ledger d JOIN auction_lots l ON l.organization_id =
              d.organization_id AND l.id = d.source_id
                         WHERE d.organization_id = a.organization_id AND d.source = 'auction' AND d.deleted_at IS NULL AND
                         l.auction_id = a.id), 0)::text AS raised,
              COALESCE((SELECT sum(l.high_bid_minor) FROM auction_lots l WHERE l.organization_id = a.organization_id AND
              l.auction_id = a.id AND l.status = 'open' AND a.status = 'open'), 0)::text AS open_high_bids,
              (SELECT count(*) FROM auction_lots l WHERE l.organization_id = a.organization_id AND l.auction_id = a.id)::text AS lots
         FROM auctions a WHERE a.organization_id = $1 AND a.campaign_id = $2 ORDER BY a.created_at, a.id`,
      [orgId, campaignId],
    ),
  ]);
  return { byType, bySource, donorCount: Number(donors[0]?.n ?? 0), auctions };
}
export async function openAuctionCount(q: Queryable, orgId: string, campaignId: string) {
  const r = await q.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM auctions WHERE organization_id = $1 AND campaign_id = $2 AND status = 'open'",
    [orgId, campaignId],
  );
  return Number(r[0]?.n ?? 0);
}
