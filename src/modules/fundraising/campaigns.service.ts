import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { amount, checkCustomFields, parseAmount } from './money.ts';
import * as repo from './campaigns.repository.ts';
import type { CampaignCreateBody, CampaignOut, CampaignUpdateBody } from './schemas.ts';
import { checkDefinedOrFreeform } from '../customfields/public.ts';

function percent(raised: bigint, goal: bigint | null): number | null {
  if (goal === null || goal <= 0n) return null;
  // One decimal, exact: (raised × 1000 / goal) rounded down, then / 10.
  return Number((raised * 1000n) / goal) / 10;
}

export function toCampaign(r: repo.CampaignRow, raised: repo.RaisedRow[]): CampaignOut {
  const mine = raised.filter((x) => x.campaign_id === r.id);
  const toward = BigInt(mine.find((x) => x.currency === r.currency)?.amount_minor ?? 0);
  const goal = r.goal_minor === null ? null : BigInt(r.goal_minor);
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    currency: r.currency,
    goal: amount(r.goal_minor, r.currency),
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    status: r.status,
    closed_at: r.closed_at,
    raised: mine.map((x) => ({ currency: x.currency, amount: amount(x.amount_minor, x.currency) ?? 0, count: Number(x.count) })),
    raised_toward_goal: amount(toward, r.currency) ?? 0,
    percent_of_goal: percent(toward, goal),
    custom_fields: r.custom_fields,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export async function getCampaign(q: Queryable, orgId: string, id: string) {
  const row = await repo.campaignById(q, orgId, id);
  if (!row) throw notFound('campaign');
  return toCampaign(row, await repo.raisedFor(q, orgId, [id]));
}

export async function listCampaigns(q: Queryable, orgId: string, f: { status?: string; q?: string }, limit: number, offset: number) {
  const rows = await repo.listCampaigns(q, orgId, f, limit, offset);
  const raised = await repo.raisedFor(
    q,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toCampaign(r, raised));
}

function checkDates(errors: FieldErrors, starts: string | null | undefined, ends: string | null | undefined) {
  if (starts && ends && ends < starts) errors.ends_on = ['must not be before starts_on'];
}

export async function createCampaign(db: Db, org: Organization, b: CampaignCreateBody, actor: string) {
  const errors: FieldErrors = {};
  const currency = b.currency ?? org.currency;
  const goal = parseAmount(errors, 'goal', b.goal, currency);
  checkDates(errors, b.starts_on, b.ends_on);
  if (Object.keys(errors).length) throw invalid(errors);
  return db.tx(async (q) => {
    const custom = await checkDefinedOrFreeform(q, org.id, 'campaign', b.custom_fields ?? {}, { creating: true }, checkCustomFields);
    const id = newId('cmp');
    await repo.insertCampaign(q, org.id, {
      id,
      name: b.name,
      description: b.description || null,
      currency,
      goal_minor: goal,
      starts_on: b.starts_on ?? null,
      ends_on: b.ends_on ?? null,
      custom_fields: custom,
    });
    await audit(q, org.id, actor, 'create', 'campaign', id, { name: b.name });
    return getCampaign(q, org.id, id);
  });
}

export async function updateCampaign(db: Db, orgId: string, id: string, b: CampaignUpdateBody, actor: string) {
  return db.tx(async (q) => {
    const current = await repo.campaignById(q, orgId, id, true);
    if (!current) throw notFound('campaign');
    const errors: FieldErrors = {};
    const patch: Record<string, unknown> = {};
    if (b.name !== undefined) patch.name = b.name;
    if (b.description !== undefined) patch.description = b.description || null;
    if (b.goal !== undefined) patch.goal_minor = b.goal === null ? null : parseAmount(errors, 'goal', b.goal, current.currency);
    if (b.starts_on !== undefined) patch.starts_on = b.starts_on;
    if (b.ends_on !== undefined) patch.ends_on = b.ends_on;
    checkDates(errors, b.starts_on !== undefined ? b.starts_on : current.starts_on, b.ends_on !== undefined ? b.ends_on : current.ends_on);
    if (Object.keys(errors).length) throw invalid(errors);
    if (b.custom_fields !== undefined)
      patch.custom_fields = await checkDefinedOrFreeform(
        q,
        orgId,
        'campaign',
        b.custom_fields,
        { creating: false, current: current.custom_fields },
        checkCustomFields,
      );
    await repo.updateCampaign(q, orgId, id, patch);
    await audit(q, orgId, actor, 'update', 'campaign', id, Object.keys(b));
    return getCampaign(q, orgId, id);
  });
}

/** Closing ends the campaign; its auctions must be closed first so every lot is settled. Closing again changes nothing. */
export async function closeCampaign(db: Db, orgId: string, id: string, actor: string) {
  return db.tx(async (q) => {
    const current = await repo.campaignById(q, orgId, id, true);
    if (!current) throw notFound('campaign');
    if (current.status !== 'closed') {
      const open = await repo.openAuctionCount(q, orgId, id);
      if (open > 0)
        throw invalid({
          id: [`has ${open} open auction${open === 1 ? '' : 's'}; close ${open === 1 ? 'it' : 'them'} first so every lot is settled`],
        });
      await kx(q)
        .updateTable('fundraising_campaigns')
        .set({ status: 'closed', closed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      await audit(q, orgId, actor, 'close', 'campaign', id);
    }
    return getCampaign(q, orgId, id);
  });
}

export async function campaignSummary(q: Queryable, orgId: string, id: string) {
  const c = await getCampaign(q, orgId, id);
  const s = await repo.summaryRows(q, orgId, id);
  return {
    campaign_id: id,
    currency: c.currency,
    goal: c.goal,
    raised: c.raised,
    raised_toward_goal: c.raised_toward_goal,
    percent_of_goal: c.percent_of_goal,
    by_type: s.byType.map((r) => ({
      type: r.type,
      currency: r.currency,
      amount: amount(r.amount_minor, r.currency) ?? 0,
      count: Number(r.count),
    })),
    by_source: s.bySource.map((r) => ({
      source: r.source,
      currency: r.currency,
      amount: amount(r.amount_minor, r.currency) ?? 0,
      count: Number(r.count),
    })),
    donor_count: s.donorCount,
    auctions: s.auctions.map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      currency: a.currency,
      raised: amount(a.raised, a.currency) ?? 0,
      open_high_bids: amount(a.open_high_bids, a.currency) ?? 0,
      lots: Number(a.lots),
    })),
  };
}
