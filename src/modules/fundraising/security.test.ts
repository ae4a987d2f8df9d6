import { after, before } from 'node:test';
import { testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, type Endpoint } from '../../../test/security.ts';
import { auction, bidder, campaign, donation, lot, person } from './testkit.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const R = { area: 'fundraising' as const, level: 'read' as const };
const W = { area: 'fundraising' as const, level: 'write' as const };
const A = { area: 'fundraising' as const, level: 'admin' as const };
const cmp = async (org: TestOrg) => (await campaign(org)).id as string;
const auc = async (org: TestOrg) => (await auction(org)).id as string;
const withLot = async (org: TestOrg) => {
  const a = await auc(org);
  return `/api/fundraising/auctions/${a}/lots/${(await lot(org, a)).id}`;
};
const wish = async (org: TestOrg) => {
  const r = await org.req('POST', '/api/fundraising/wish-list', { body: { name: 'Bleach', quantity_wanted: 3 } });
  return `/api/fundraising/wish-list/${r.body.id}`;
};

const endpoints: Endpoint[] = [
  { method: 'GET', path: () => '/api/fundraising/campaigns', ...R },
  { method: 'POST', path: () => '/api/fundraising/campaigns', body: { name: 'x' }, ...W },
  { method: 'GET', path: async (o) => `/api/fundraising/campaigns/${await cmp(o)}`, ...R },
  { method: 'PATCH', path: async (o) => `/api/fundraising/campaigns/${await cmp(o)}`, body: { name: 'y' }, ...W },
  { method: 'POST', path: async (o) => `/api/fundraising/campaigns/${await cmp(o)}/close`, ...W },
  { method: 'GET', path: async (o) => `/api/fundraising/campaigns/${await cmp(o)}/summary`, ...R },
  { method: 'GET', path: () => '/api/fundraising/auctions', seed: auc, ...R },
  { method: 'POST', path: () => '/api/fundraising/auctions', body: { campaign_id: 'cmp_x', name: 'x' }, ...W },
  { method: 'GET', path: async (o) => `/api/fundraising/auctions/${await auc(o)}`, ...R },
  { method: 'PATCH', path: async (o) => `/api/fundraising/auctions/${await auc(o)}`, body: { name: 'y' }, ...W },
  { method: 'POST', path: async (o) => `/api/fundraising/auctions/${await auc(o)}/close`, ...W },
  { method: 'GET', path: async (o) => `/api/fundraising/auctions/${await auc(o)}/lots`, ...R },
  {
    method: 'POST',
    path: async (o) => `/api/fundraising/auctions/${await auc(o)}/lots`,
    body: { title: 'x', opening_bid: 1, increment: 1 },
    ...W,
  },
  { method: 'GET', path: withLot, ...R },
  { method: 'PATCH', path: withLot, body: { title: 'z' }, ...W },
  { method: 'GET', path: async (o) => `${await withLot(o)}/bids`, ...R },
  {
    method: 'POST',
    ...W,
    body: { paddle_number: 1, amount: 100 },
    path: async (o) => {
      const a = await auc(o);
      await bidder(o, a);
      return `/api/fundraising/auctions/${a}/lots/${(await lot(o, a)).id}/bids`;
    },
  },
  {
    method: 'GET',
    ...R,
    path: async (o) => {
      const a = await auc(o);
      await bidder(o, a);
      return `/api/fundraising/auctions/${a}/bidders`;
    },
  },
  { method: 'POST', path: async (o) => `/api/fundraising/auctions/${await auc(o)}/bidders`, body: { person_id: 'per_x' }, ...W },
  {
    method: 'GET',
    path: () => '/api/fundraising/donors',
    ...R,
    seed: async (o) => {
      const p = await person(o, { roles: ['donor'] });
      await donation(o, { donorId: p, amount: 25 });
      return p;
    },
  },
  { method: 'GET', path: async (o) => `/api/fundraising/donors/${await person(o, { roles: ['donor'] })}`, ...R },
  { method: 'GET', path: async (o) => `/api/fundraising/donors/${await person(o, { roles: ['donor'] })}/statements/2024`, ...R },
  { method: 'GET', path: () => '/api/fundraising/wish-list', ...R },
  { method: 'POST', path: () => '/api/fundraising/wish-list', body: { name: 'x', quantity_wanted: 1 }, ...W },
  { method: 'GET', path: wish, ...R },
  { method: 'PATCH', path: wish, body: { name: 'y' }, ...W },
  { method: 'POST', path: async (o) => `${await wish(o)}/receive`, body: {}, ...W },
  { method: 'DELETE', path: wish, ...A },
];

securitySuite('fundraising', () => t, endpoints);
