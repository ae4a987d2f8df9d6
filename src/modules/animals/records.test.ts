import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const base = { name: 'Biscuit', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' };
async function animal(org: TestOrg, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', { body: { ...base, ...extra } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
const chips = async (org: TestOrg, id: string) => (await org.req('GET', `/api/animals/${id}/microchips`)).body.results as any[];
const familyA = async (org: TestOrg, id: string) => (await org.req('GET', `/api/v1/animals/${id}`)).body;
async function auditCount(org: TestOrg) {
  return Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log WHERE organization_id = $1', [org.id]))[0]?.n);
}

test('microchips: normalized, derived country and maker, unusual lengths kept with a warning, duplicates refused', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const first = await org.req('POST', `/api/animals/${id}/microchips`, {
    body: { number: '276-098 106.123*456', implanted_on: '2024-01-05', registry: 'Tasso' },
  });
  assert.equal(first.status, 201, first.raw);
  assert.match(first.body.id, /^chp_/);
  assert.deepEqual(
    [first.body.number, first.body.standard, first.body.country_code, first.body.country_name, first.body.is_primary],
    ['276098106123456', 'iso_11784', 'DE', 'Germany', true],
  );
  assert.deepEqual(first.body.warnings, []);
  const maker = await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '981020000123456' } });
  assert.deepEqual(
    [maker.body.manufacturer_code, maker.body.manufacturer, maker.body.country_code, maker.body.is_primary],
    ['981', 'Datamars', null, false],
  );
  const odd = await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: 'ab-12' } });
  assert.equal(odd.status, 201);
  assert.equal(odd.body.number, 'AB12');
  assert.deepEqual(
    odd.body.warnings.map((w: any) => w.code),
    ['unusual_length'],
  );
  assert.equal((await chips(org, id))[2].warnings[0].code, 'unusual_length');
  // The same number twice on one animal (after normalization), and a number of separators only: 422, nothing added.
  const before = await auditCount(org);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '276 098 106 123 456' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '-- *' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '1', colour: 'red' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/microchips`, { body: {} }), 400);
  assert.equal(await auditCount(org), before);
  assert.equal((await chips(org, id)).length, 3);
  // Another animal with the same chip: kept, with a warning naming the first.
  const other = await animal(org);
  const dup = await org.req('POST', `/api/animals/${other}/microchips`, { body: { number: '276098106123456' } });
  assert.equal(dup.status, 201);
  assert.ok(dup.body.warnings.some((w: any) => w.code === 'chip_on_other_animal' && w.message.includes(id)));
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/ani_nobody/microchips'), 404);
});

test('exactly one primary chip; it is Family A microchipNumber, both ways, and the list filter finds any chip', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { microchipNumber: '985 112 003 456 789' });
  let list = await chips(org, id);
  assert.deepEqual(
    list.map((c) => [c.number, c.is_primary]),
    [['985112003456789', true]],
  );
  // A second chip added as primary demotes the first and becomes microchipNumber.
  const second = await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '0A123B456C', is_primary: true } });
  assert.equal(second.body.is_primary, true);
  assert.equal((await familyA(org, id)).microchipNumber, '0A123B456C');
  list = await chips(org, id);
  assert.deepEqual(
    list.map((c) => [c.number, c.is_primary]),
    [
      ['0A123B456C', true],
      ['985112003456789', false],
    ],
  );
  // The Family A filter finds the animal by either chip.
  for (const n of ['985-112-003-456-789', '0a123b456c']) {
    const found = await org.req('GET', `/api/v1/animals?microchipNumber=${n}`);
    assert.deepEqual(
      found.body.data.map((a: any) => a.id),
      [id],
      n,
    );
    assert.equal(found.body.meta.total, 1);
  }
  // PATCH is_primary on the other chip swaps back.
  const old = list[1];
  const swapped = await org.req('PATCH', `/api/animals/${id}/microchips/${old.id}`, { body: { is_primary: true, registry: 'HomeAgain' } });
  assert.equal(swapped.status, 200);
  assert.equal((await familyA(org, id)).microchipNumber, '985112003456789');
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/${id}/microchips/${old.id}`, { body: { is_primary: false } }), 422);
  // Family A PATCH of microchipNumber renumbers the primary chip (registry kept).
  const patched = await org.req('PATCH', `/api/v1/animals/${id}`, { body: { microchipNumber: '900.164.000.000.001' } });
  assert.equal(patched.body.microchipNumber, '900164000000001');
  list = await chips(org, id);
  assert.deepEqual(
    list.map((c) => [c.number, c.is_primary, c.registry]),
    [
      ['900164000000001', true, 'HomeAgain'],
      ['0A123B456C', false, null],
    ],
  );
  // A number the animal already carries becomes primary.
  await org.req('PATCH', `/api/v1/animals/${id}`, { body: { microchipNumber: '0A123B456C' } });
  list = await chips(org, id);
  assert.deepEqual(
    list.map((c) => [c.number, c.is_primary]),
    [
      ['0A123B456C', true],
      ['900164000000001', false],
    ],
  );
  // Removing the primary chip promotes the oldest remaining one.
  assert.equal((await org.req('DELETE', `/api/animals/${id}/microchips/${list[0].id}`)).status, 204);
  assert.equal((await familyA(org, id)).microchipNumber, '900164000000001');
  assert.equal((await chips(org, id))[0].is_primary, true);
  // Family A null removes the primary chip; with none left microchipNumber is null.
  const cleared = await org.req('PATCH', `/api/v1/animals/${id}`, { body: { microchipNumber: null } });
  assert.equal(cleared.body.microchipNumber, null);
  assert.deepEqual(await chips(org, id), []);
  // A Family A PATCH on an animal without chips adds a primary chip.
  await org.req('PATCH', `/api/v1/animals/${id}`, { body: { microchipNumber: '123456789' } });
  assert.deepEqual(
    (await chips(org, id)).map((c) => [c.number, c.is_primary, c.standard]),
    [['123456789', true, 'avid']],
  );
  // The database refuses a second primary chip.
  await assert.rejects(
    t.db.query(
      "INSERT INTO animal_microchips (organization_id, id, animal_id, number, is_primary) VALUES ($1, 'chp_x', $2, '111111111', true)",
      [org.id, id],
    ),
  );
});

test('concurrent primary chips on one animal: exactly one stays primary', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const results = await Promise.all(
    ['111111111', '222222222', '333333333', '444444444'].map((number) =>
      org.req('POST', `/api/animals/${id}/microchips`, { body: { number, is_primary: true } }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    [201, 201, 201, 201],
  );
  const list = await chips(org, id);
  assert.equal(list.filter((c) => c.is_primary).length, 1);
  assert.equal((await familyA(org, id)).microchipNumber, list[0].number);
});

test('weights: history in kg or lb, Family A weight is the latest in pounds, Family A PATCH records a row', async () => {
  const org = await makeOrg(t, { timeZone: 'Pacific/Kiritimati' });
  const id = await animal(org, { weight: 40 });
  let hist = (await org.req('GET', `/api/animals/${id}/weights`)).body.results;
  assert.equal(hist.length, 1);
  assert.deepEqual([hist[0].weight, hist[0].unit, hist[0].weight_lb], [40, 'lb', 40]);
  const kg = await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 10, unit: 'kg' } });
  assert.equal(kg.status, 201, kg.raw);
  assert.match(kg.body.id, /^wgt_/);
  assert.equal(kg.body.weight_lb, 22.05); // 10 / 0.45359237 = 22.0462...
  assert.equal((await familyA(org, id)).weight, 22.05);
  // An older measurement does not move the animal's weight.
  await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 5, unit: 'kg', measured_on: '2020-01-01' } });
  assert.equal((await familyA(org, id)).weight, 22.05);
  // Exactness: 1 kg is 2.20462262... lb, 0.45359237 kg is exactly 1 lb.
  await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 0.454, unit: 'kg' } });
  assert.equal((await familyA(org, id)).weight, 1);
  // Family A PATCH: recorded as today's row in pounds and is the latest.
  const p = await org.req('PATCH', `/api/v1/animals/${id}`, { body: { weight: 33.3 } });
  assert.equal(p.body.weight, 33.3);
  hist = (await org.req('GET', `/api/animals/${id}/weights`)).body.results;
  assert.deepEqual([hist[0].weight, hist[0].unit], [33.3, 'lb']);
  assert.equal(hist.length, 5);
  assert.equal(hist[4].measured_on, '2020-01-01');
  // Removing the latest row moves the weight back to the previous latest.
  assert.equal((await org.req('DELETE', `/api/animals/${id}/weights/${hist[0].id}`)).status, 204);
  assert.equal((await familyA(org, id)).weight, 1);
  // Bad input: 422/400, nothing changed.
  const before = await auditCount(org);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 3, unit: 'stone' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 0, unit: 'kg' } }), 422);
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 3, unit: 'kg', measured_on: '2999-01-01' } }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/weights`, { body: { unit: 'kg' } }), 400);
  assert.equal(await auditCount(org), before);
  assert.equal((await org.req('GET', `/api/animals/${id}/weights?limit=2`)).body.has_more, true);
  assertErrorShape('/api/x', await org.req('GET', `/api/animals/${id}/weights?limit=101`), 422);
});

const withChip = async (org: TestOrg) => {
  const id = await animal(org);
  const c = await org.req('POST', `/api/animals/${id}/microchips`, { body: { number: '985112003456789' } });
  return `/api/animals/${id}/microchips/${c.body.id}`;
};
const withWeight = async (org: TestOrg) => {
  const id = await animal(org);
  const w = await org.req('POST', `/api/animals/${id}/weights`, { body: { weight: 3, unit: 'kg' } });
  return `/api/animals/${id}/weights/${w.body.id}`;
};
securitySuite('animal records', () => t, [
  { method: 'GET', path: async (org) => (await withChip(org)).replace(/\/chp_.*/, ''), area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/microchips`,
    body: { number: '123456789' },
    area: 'animals',
    level: 'write',
  },
  { method: 'PATCH', path: withChip, body: { registry: 'x' }, area: 'animals', level: 'write' },
  { method: 'DELETE', path: withChip, area: 'animals', level: 'admin' },
  { method: 'GET', path: async (org) => (await withWeight(org)).replace(/\/wgt_.*/, ''), area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/weights`,
    body: { weight: 2, unit: 'lb' },
    area: 'animals',
    level: 'write',
  },
  { method: 'DELETE', path: withWeight, area: 'animals', level: 'admin' },
]);
