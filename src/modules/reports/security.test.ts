// Every reports route in the shared security suite: 401/403 (reports, and read on each area a report counts)
// /404, tenant isolation (a record seeded in one organization shows in its report, never in another's).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, unique, type Endpoint } from '../../../test/security.ts';
import { application, person } from '../adoptions/fixtures.test-helpers.ts';
import { foster, fresh, intake, outcome } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9' });
});
after(async () => t.close());

const animalsRead = [{ area: 'animals' as const, level: 'read' as const }];
let k = 0;
/** An animal of a species no other organization has, in care from 2 March 2026; its species (lower case) marks it. */
async function marked(org: TestOrg): Promise<{ id: string; species: string }> {
  const species = `Zebra${++k}${org.slug.slice(2, 8)}`;
  const id = await fresh(org, `Z${k}`, { species });
  await intake(org, id, '2026-03-02T12:00:00Z', 'stray');
  return { id, species: species.toLowerCase() };
}
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ok = (r: { status: number; raw: string }, status = 201) => assert.equal(r.status, status, r.raw);
async function vaccineItem(org: TestOrg): Promise<string> {
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: `DHPP ${++k}` } });
  ok(item);
  return item.body.id as string;
}
const scheduleBody = { name: 'Monthly', report: 'sac', format: 'csv', recipients: ['board@example.org'] };
async function schedule(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/reports/schedules', { body: scheduleBody });
  ok(r);
  return r.body.id as string;
}
async function submission(org: TestOrg): Promise<string> {
  // One submission per month and species group: a month of its own each time (the suite's endpoints share an organization).
  const n = Number(unique(''));
  const month = `${2001 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
  const r = await org.req('POST', '/api/reports/sac/submissions', { body: { month, species_group: 'dogs' } });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}

const endpoints: Endpoint[] = [
  // The catalogue: the same for every organization (no records of its own), read on Reports alone.
  { method: 'GET', path: () => '/api/reports', area: 'reports', level: 'read', shared: true },
  {
    method: 'GET',
    path: () => '/api/reports/sac?month=2026-03&species_group=other&detail=true',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => (await marked(org)).id,
  },
  {
    method: 'POST',
    path: () => '/api/reports/sac/submissions',
    body: { month: '2026-02', species_group: 'cats' },
    area: 'reports',
    level: 'write',
    also: animalsRead,
  },
  {
    method: 'GET',
    path: () => '/api/reports/sac/submissions',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: submission,
  },
  {
    method: 'GET',
    path: async (org) => `/api/reports/sac/submissions/${await submission(org)}`,
    area: 'reports',
    level: 'read',
    also: animalsRead,
  },
  {
    method: 'GET',
    path: () => '/api/reports/live-release-rate?from=2026-03-01&to=2026-03-31',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      await outcome(org, a.id, '2026-03-09T12:00:00Z', 'return_to_field');
      return '"live_outcomes":1';
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/intakes?from=2026-03-01&to=2026-03-31',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => (await marked(org)).species,
  },
  {
    method: 'GET',
    path: () => '/api/reports/outcomes?from=2026-03-01&to=2026-03-31',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      await outcome(org, a.id, '2026-03-09T12:00:00Z', 'adoption');
      return a.species;
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/length-of-stay?from=2026-03-01&to=2026-03-31',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      await outcome(org, a.id, '2026-03-09T12:00:00Z', 'adoption');
      return '"outcome_type":"adoption"';
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/in-care?date=2026-03-10',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      await marked(org);
      return '"care_state":"in_care"';
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/medical-due?date=2026-03-10&days=7',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      ok(await org.req('POST', `/api/animals/${a.id}/medical/due`, { body: { item_id: await vaccineItem(org), due_on: '2026-03-05' } }));
      return a.species;
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/vaccinations?from=2026-03-01&to=2026-03-31',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      const lot = `LOT-${org.slug}`;
      ok(
        await org.req('POST', `/api/animals/${a.id}/medical`, {
          body: { kind: 'vaccine', name: 'Rabies', lot, given_at: '2026-03-04T12:00:00Z' },
        }),
      );
      return lot;
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/foster-homes?date=2026-03-10',
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const a = await marked(org);
      const assignment = await foster(org, a.id, '2026-03-05');
      return (await org.req('GET', `/api/animals/foster-assignments/${assignment}`)).body.foster_home_id as string;
    },
  },
  {
    method: 'GET',
    path: () => `/api/reports/adoptions?from=${day(-2)}&to=${day(2)}`,
    area: 'reports',
    level: 'read',
    also: animalsRead,
    seed: async (org) => {
      const pet = await org.req('POST', '/api/v1/animals', {
        body: { name: 'Olive', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'female' },
      });
      ok(pet);
      const app = await application(org, await person(org), [pet.body.id]);
      const f = await org.req('POST', `/api/animals/adoption-applications/${app}/finalize`, { body: {} });
      ok(f);
      return f.body.results[0].id as string;
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/donations?from=2026-04-01&to=2026-04-30',
    area: 'reports',
    level: 'read',
    also: [{ area: 'fundraising', level: 'read' }],
    seed: async (org) => {
      const donor = await org.req('POST', '/api/v1/people', {
        body: { firstName: 'Dee', lastName: 'Onor', email: `dee.${org.slug}@example.com`, roles: ['donor'] },
      });
      ok(donor);
      const camp = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Spring', currency: org.currency } });
      ok(camp);
      ok(
        await org.req('POST', '/api/v1/donations', {
          body: { donorId: donor.body.id, amount: 3, type: 'one-off', date: '2026-04-02', paymentMethod: 'card', campaignId: camp.body.id },
        }),
      );
      return camp.body.id as string;
    },
  },
  {
    method: 'GET',
    path: () => '/api/reports/volunteer-hours?from=2099-06-01&to=2099-06-30',
    area: 'reports',
    level: 'read',
    also: [{ area: 'shifts', level: 'read' }],
    seed: async (org) => {
      const vol = await org.req('POST', '/api/v1/people', {
        body: { firstName: 'Val', lastName: 'Unteer', email: `val.${org.slug}@example.org`, roles: ['volunteer'] },
      });
      ok(vol);
      const s = await org.req('POST', '/api/shifts/schedules', {
        body: { name: 'Care day', starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-30T00:00:00Z' },
      });
      ok(s);
      const w = await org.req('POST', `/api/shifts/schedules/${s.body.id}/windows`, {
        body: { starts_at: '2099-06-01T14:00:00Z', ends_at: '2099-06-01T17:00:00Z', capacity: 2 },
      });
      ok(w);
      ok(await org.req('POST', `/api/shifts/windows/${w.body.id}/bookings`, { body: { person_id: vol.body.id } }));
      return vol.body.id as string;
    },
  },
  {
    method: 'GET',
    path: () => `/api/reports/message-delivery?from=${day(-2)}&to=${day(2)}`,
    area: 'reports',
    level: 'read',
    also: [{ area: 'communications', level: 'read' }],
    seed: async (org) => {
      const send = await org.req('POST', '/api/communications/messages', {
        body: {
          idempotency_key: `rep-${org.slug}`,
          to_addresses: ['someone@example.org'],
          subject: 'Hello',
          body_blocks: [{ type: 'p', runs: [{ text: 'Hi' }] }],
          category: 'transactional',
        },
      });
      assert.ok(send.status < 300, send.raw);
      return '"pending":1';
    },
  },
  { method: 'GET', path: () => '/api/reports/schedules', area: 'reports', level: 'read' },
  // Creating a schedule also needs read on the areas its report reads (the SAC matrix: Animals).
  { method: 'POST', path: () => '/api/reports/schedules', body: scheduleBody, area: 'reports', level: 'write', also: animalsRead },
  { method: 'GET', path: async (org) => `/api/reports/schedules/${await schedule(org)}`, area: 'reports', level: 'read' },
  {
    method: 'PATCH',
    path: async (org) => `/api/reports/schedules/${await schedule(org)}`,
    body: { name: 'Renamed' },
    area: 'reports',
    level: 'write',
    also: animalsRead,
  },
  { method: 'DELETE', path: async (org) => `/api/reports/schedules/${await schedule(org)}`, area: 'reports', level: 'write' },
  { method: 'POST', path: async (org) => `/api/reports/schedules/${await schedule(org)}/run`, area: 'reports', level: 'write' },
];

securitySuite('reports', () => t, endpoints);
