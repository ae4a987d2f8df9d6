// Every reports route in the shared security suite: 401/403 (reports, and read on each area a report counts)
// /404, tenant isolation (a record seeded in one organization shows in its report, never in another's).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, type Endpoint } from '../../../test/security.ts';
import { fresh, intake, outcome } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
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
async function submission(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/reports/sac/submissions', { body: { month: '2026-01', species_group: 'dogs' } });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}

const endpoints: Endpoint[] = [
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
];

securitySuite('reports', () => t, endpoints);
