import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { animal } from '../operations/fixtures.test-helpers.ts';
import { seedMedical } from './seed.ts';
import { addDays, todayIn } from './dates.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('seed: catalogue, protocols, due and overdue vaccinations, records, spayed/neutered animals', async () => {
  const org = await makeOrg(t);
  const animals: { id: string; name: string; species: string; status: string }[] = [];
  for (let i = 0; i < 12; i++) {
    const species = i % 2 ? 'cat' : 'dog';
    const intakeDate = addDays(todayIn('America/New_York'), -20 - i * 9);
    animals.push({
      id: await animal(org, { species, intakeDate, dateOfBirth: '2022-01-01' }),
      name: `A${i}`,
      species,
      status: 'Available',
    });
  }
  const orgRow = (
    await t.db.query<Organization>(
      'SELECT id, slug, name, email, phone, website, currency, time_zone, country FROM organizations WHERE id = $1',
      [org.id],
    )
  )[0];
  assert.ok(orgRow);
  await t.db.tx((q) => seedMedical(q, orgRow, { people: [], animals }));
  const due = await org.req('GET', '/api/animals/medical/due?limit=100');
  assert.equal(due.status, 200, due.raw);
  const states = new Set(due.body.results.map((r: { state: string }) => r.state));
  assert.ok(states.has('overdue') && states.has('due'), JSON.stringify([...states]));
  assert.ok((await org.req('GET', '/api/animals/medical/protocols')).body.results.length >= 4);
  const withRecords = await Promise.all(animals.map(async (a) => (await org.req('GET', `/api/animals/${a.id}/medical`)).body));
  assert.ok(withRecords.some((m) => m.results.some((r: { kind: string }) => r.kind === 'vaccine')));
  assert.ok(withRecords.some((m) => m.results.some((r: { result: string | null }) => r.result === 'negative')));
  assert.ok(withRecords.some((m) => m.altered.altered));
});
