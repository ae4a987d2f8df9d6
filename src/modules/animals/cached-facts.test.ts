/**
 * An animal write reads the organization's rarely changing facts from caches (custom field definitions, the time
 * zone, the registry settings, the species with medical protocols). Each test fills the cache with a write, changes
 * the fact through its route, and checks the very next write follows the new value.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, request, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { todayIn } from './weights.service.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const create = (org: TestOrg, body: Record<string, unknown> = {}) =>
  org.req('POST', '/api/v1/animals', {
    body: { name: 'Pip', species: 'dog', status: 'Intake', intakeDate: '2026-03-02', ...body },
  });

test('a custom field defined, made required or retired applies to the next animal write', async () => {
  const org = await makeOrg(t);
  assert.equal((await create(org)).status, 201); // no definitions, now cached
  const def = await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'kennel_tag', field_label: 'Kennel tag', field_type: 'text', required: true },
  });
  assert.equal(def.status, 201, def.raw);
  const missing = await create(org);
  assert.equal(missing.status, 400, missing.raw);
  assert.match(missing.raw, /kennel_tag/);
  const given = await create(org, { customFields: { kennel_tag: 'K-7' } });
  assert.equal(given.status, 201, given.raw);
  assert.deepEqual(given.body.customFields, { kennel_tag: 'K-7' });
  // No longer required: the next create without it is taken.
  const patched = await org.req('PATCH', `/api/animals/custom-fields/${def.body.id}`, { body: { required: false } });
  assert.equal(patched.status, 200, patched.raw);
  assert.equal((await create(org)).status, 201);
  // Retired: a new value is refused, on create and on change.
  assert.equal((await org.req('POST', `/api/animals/custom-fields/${def.body.id}/retire`)).status, 200);
  assert.equal((await create(org, { customFields: { kennel_tag: 'K-8' } })).status, 422);
  const change = await org.req('PATCH', `/api/v1/animals/${given.body.id}`, { body: { customFields: { kennel_tag: 'K-9' } } });
  assert.equal(change.status, 422, change.raw);
});

test("a weight sent with the animal is measured today in the organization's time zone, after the zone changes too", async () => {
  // 25 hours apart: today is never the same day in both.
  const org = await makeOrg(t, { timeZone: 'Pacific/Kiritimati' });
  const measured = async () => {
    const days = [todayIn(await zone())];
    const made = await create(org, { weight: 12.5 });
    assert.equal(made.status, 201, made.raw);
    days.push(todayIn(await zone()));
    const hist = await org.req('GET', `/api/animals/${made.body.id}/weights`);
    assert.equal(hist.status, 200, hist.raw);
    assert.equal(hist.body.results.length, 1);
    return { on: hist.body.results[0].measured_on as string, days };
  };
  const zone = async () => (await org.req('GET', '/api/settings/organization')).body.time_zone as string;
  const east = await measured();
  assert.ok(east.days.includes(east.on), `${east.on} is not today in Pacific/Kiritimati (${east.days.join(', ')})`);
  const changed = await org.req('PATCH', '/api/settings/organization', { body: { time_zone: 'Pacific/Pago_Pago' } });
  assert.equal(changed.status, 200, changed.raw);
  const west = await measured();
  assert.ok(west.days.includes(west.on), `${west.on} is not today in Pacific/Pago_Pago (${west.days.join(', ')})`);
  assert.notEqual(west.on, east.on);
});

test('a chip recorded right after publishing is turned on is published; after it is turned off, writes publish nothing', async () => {
  const org = await makeOrg(t);
  const number = `981${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 1e9).padStart(9, '0')}`;
  const lookup = async (n: string) => (await request(t, 'localhost', 'GET', `/api/registry/microchips/${n}`, { key: null })).body;
  assert.equal((await org.req('PATCH', '/api/registry/settings', { body: { publish_chips: false } })).status, 200);
  assert.equal((await create(org)).status, 201); // publishing off, now cached
  assert.equal((await org.req('PATCH', '/api/registry/settings', { body: { publish_chips: true } })).status, 200);
  const chipped = await create(org, { microchipNumber: number });
  assert.equal(chipped.status, 201, chipped.raw);
  assert.equal((await lookup(number)).results.length, 1);
  // A plain change (one statement when the registry has nothing to do) leaves the copy; turning publishing off removes it.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${chipped.body.id}`, { body: { notes: 'Shy.' } })).status, 200);
  assert.equal((await lookup(number)).results.length, 1);
  assert.equal((await org.req('PATCH', '/api/registry/settings', { body: { publish_chips: false } })).status, 200);
  const second = `${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`;
  const other = await create(org, { microchipNumber: second });
  assert.equal(other.status, 201, other.raw);
  assert.equal((await lookup(number)).results.length, 0);
  assert.equal((await lookup(second)).results.length, 0);
});

test('a protocol added for a species applies to the next animal of that species; deactivated, to none', async () => {
  const org = await makeOrg(t);
  const before = await create(org, { species: 'cat' }); // no species with protocols, now cached
  assert.equal(before.status, 201, before.raw);
  assert.deepEqual((await org.req('GET', `/api/animals/${before.body.id}/medical`)).body.due, []);
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'FVRCP', species: ['cat'] } });
  assert.equal(item.status, 201, item.raw);
  const p = await org.req('POST', '/api/animals/medical/protocols', {
    body: { name: 'Kitten series', species: 'cat', item_id: item.body.id, interval_days: 21, doses: 3 },
  });
  assert.equal(p.status, 201, p.raw);
  const cat = await create(org, { species: 'Cat' });
  assert.equal(cat.status, 201, cat.raw);
  const med = await org.req('GET', `/api/animals/${cat.body.id}/medical`);
  assert.deepEqual(
    med.body.due.map((d: { item_id: string; dose_number: number; due_on: string }) => [d.item_id, d.dose_number, d.due_on]),
    [[item.body.id, 1, '2026-03-02']],
  );
  assert.equal((await org.req('PATCH', `/api/animals/medical/protocols/${p.body.id}`, { body: { active: false } })).status, 200);
  const later = await create(org, { species: 'cat' });
  assert.deepEqual((await org.req('GET', `/api/animals/${later.body.id}/medical`)).body.due, []);
});

test("a create's rows are one statement's, in the order they were written: the animal's audit row, then its first stay's", async () => {
  const org = await makeOrg(t);
  const made = await create(org, { weight: 20 });
  assert.equal(made.status, 201, made.raw);
  const rows = await t.db.query<{ action: string; entity_type: string }>(
    `SELECT action, entity_type FROM audit_log WHERE organization_id = $1 AND (entity_id = $2 OR detail->>'animal_id' = $2) ORDER BY id`,
    [org.id, made.body.id],
  );
  assert.deepEqual(
    rows.map((r) => `${r.action} ${r.entity_type}`),
    ['create animal', 'intake animal_stay'],
  );
  const stays = await org.req('GET', `/api/animals/${made.body.id}/stays`);
  assert.equal(stays.status, 200, stays.raw);
  assert.equal(stays.body.results.length, 1);
  const changes = await t.db.query<{ event: string }>('SELECT event FROM ark_changes WHERE organization_id = $1 AND entity_id = $2', [
    org.id,
    made.body.id,
  ]);
  assert.deepEqual(
    changes.map((c) => c.event),
    ['animal.created'],
  );
});
