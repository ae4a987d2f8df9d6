/* eslint-disable @typescript-eslint/no-explicit-any -- test helper: response bodies are untyped JSON */
import assert from 'node:assert/strict';
import type { TestOrg } from '../../../test/harness.ts';
import { base62 } from '../../platform/ids.ts';

/** Test factories for the Fundraising tests: records made through the API. */
export async function person(org: TestOrg, opts: { first?: string; last?: string; roles?: string[] } = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/people', {
    body: {
      firstName: opts.first ?? 'Pat',
      lastName: opts.last ?? `Donor${base62(4)}`,
      email: `p-${base62(10).toLowerCase()}@example.com`,
      roles: opts.roles ?? [],
    },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
export async function campaign(org: TestOrg, body: Record<string, unknown> = {}): Promise<any> {
  const res = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Winter Appeal', goal: 1000, ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
export async function donation(org: TestOrg, body: Record<string, unknown>): Promise<any> {
  const res = await org.req('POST', '/api/v1/donations', { body: { type: 'one-off', paymentMethod: 'card', date: '2024-03-01', ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
export async function auction(org: TestOrg, campaignId?: string): Promise<any> {
  const cid = campaignId ?? (await campaign(org)).id;
  const res = await org.req('POST', '/api/fundraising/auctions', { body: { campaign_id: cid, name: 'Gala Night' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
export async function lot(org: TestOrg, auctionId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await org.req('POST', `/api/fundraising/auctions/${auctionId}/lots`, {
    body: { title: 'Weekend cabin', opening_bid: 100, increment: 10, fair_market_value: 150, ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
export async function bidder(org: TestOrg, auctionId: string, personId?: string): Promise<any> {
  const pid = personId ?? (await person(org));
  const res = await org.req('POST', `/api/fundraising/auctions/${auctionId}/bidders`, { body: { person_id: pid } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
export async function bid(org: TestOrg, auctionId: string, lotId: string, paddle: number, amount: number) {
  return org.req('POST', `/api/fundraising/auctions/${auctionId}/lots/${lotId}/bids`, { body: { paddle_number: paddle, amount } });
}
