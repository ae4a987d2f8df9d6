import assert from 'node:assert/strict';
import { holdMidMinute } from '../../../test/clock.ts';
import { after, before, test } from 'node:test';
import { makeOrg, request, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { lookupStatement } from './chips.repository.ts';
import { READER_ROLE } from './chips.service.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let serial = 0;
/** A chip number no other test uses (15 digits, Datamars prefix). */
const chip = () =>
  `981${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 1e6).padStart(6, '0')}${String(++serial).padStart(3, '0')}`;

async function animal(org: TestOrg, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Secret Name', species: 'dog', status: 'Available', intakeDate: '2026-01-02', notes: 'private note', ...body },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; microchipNumber: string | null };
}
const anon = (number: string, host = 'localhost') =>
  request(t, host, 'GET', `/api/registry/microchips/${encodeURIComponent(number)}`, { key: null });

test('a recorded chip is published: anyone finds the organization, species, category and date, nothing more', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  assert.equal(
    (await a.req('PATCH', '/api/settings/organization', { body: { email: 'desk@a.example', phone: '+1 202 456 1111' } })).status,
    200,
  );
  const number = chip();
  const pet = await animal(a, { microchipNumber: `${number.slice(0, 3)}-${number.slice(3)}` });
  const today = new Date().toISOString().slice(0, 10);
  const expected = {
    number,
    format: 'iso_15_digit',
    country: null,
    manufacturer_code: '981',
    manufacturer: 'Datamars',
    results: [
      {
        organization: { name: `Test Rescue ${a.slug}`, email: 'desk@a.example', phone: '+12024561111', website: null },
        species: 'dog',
        status_category: 'in_care',
        last_seen: today,
      },
    ],
    limit: 25,
    offset: 0,
    has_more: false,
  };
  const answers = [
    await anon(number), // the bare base address
    await anon(number, `${b.slug}.localhost`), // another organization's address, no key
    await anon(number.replace(/(\d{3})/g, '$1 '), `${a.slug}.localhost`), // separators are normalized away
    await b.req('GET', `/api/registry/microchips/${number}`, { key: b.keys.readOnly }), // another organization's key
  ];
  for (const res of answers) {
    assert.equal(res.status, 200, res.raw);
    // last_seen is the day of the write; the test may straddle midnight, so compare it loosely.
    assert.match(res.body.results[0].last_seen, /^\d{4}-\d{2}-\d{2}$/);
    res.body.results[0].last_seen = today;
    assert.deepEqual(res.body, expected);
    for (const secret of ['Secret Name', 'private note', pet.id, a.id])
      assert.ok(!res.raw.includes(secret), `${secret} leaked: ${res.raw}`);
  }
});

test('the status category follows the animal; a changed or removed chip and a deleted animal leave the lookup', async () => {
  const a = await makeOrg(t);
  const first = chip();
  const pet = await animal(a, { microchipNumber: first });
  const category = async (n: string) => ((await anon(n)).body.results as { status_category: string }[]).map((r) => r.status_category);
  for (const [status, want] of [
    ['Adoption Pending', 'in_care'],
    ['Adopted', 'adopted'],
    ['Transferred Out', 'transferred'],
    ['Deceased', 'other'],
    ['Courtesy Listing', 'other'],
  ] as const) {
    assert.equal((await a.req('PATCH', `/api/v1/animals/${pet.id}`, { body: { status } })).status, 200);
    assert.deepEqual(await category(first), [want], status);
  }
  const second = chip();
  assert.equal((await a.req('PATCH', `/api/v1/animals/${pet.id}`, { body: { microchipNumber: second } })).status, 200);
  assert.deepEqual(await category(first), []);
  assert.deepEqual(await category(second), ['other']);
  assert.equal((await a.req('PATCH', `/api/v1/animals/${pet.id}`, { body: { microchipNumber: null } })).status, 200);
  assert.deepEqual(await category(second), []);
  assert.equal((await a.req('PATCH', `/api/v1/animals/${pet.id}`, { body: { microchipNumber: second } })).status, 200);
  assert.deepEqual(await category(second), ['other']);
  assert.equal((await a.req('DELETE', `/api/v1/animals/${pet.id}`)).status, 204);
  assert.deepEqual(await category(second), []);
});

test('several organizations with one chip are all listed; each opts out alone', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const number = chip();
  const petA = await animal(a, { microchipNumber: number });
  await animal(b, { microchipNumber: number, species: 'cat' });
  const names = async () =>
    ((await anon(number)).body.results as { organization: { name: string } }[]).map((r) => r.organization.name).sort();
  assert.deepEqual(await names(), [`Test Rescue ${a.slug}`, `Test Rescue ${b.slug}`].sort());
  const off = await a.req('PUT', `/api/registry/animals/${petA.id}/publication`, { body: { publish: false }, key: a.keys.staff });
  assert.equal(off.status, 200, off.raw);
  assert.deepEqual(off.body, { animal_id: petA.id, publish: false, published_numbers: [] });
  assert.deepEqual(await names(), [`Test Rescue ${b.slug}`]);
  // A later change to the animal does not publish it again.
  await a.req('PATCH', `/api/v1/animals/${petA.id}`, { body: { status: 'Adopted' } });
  assert.deepEqual(await names(), [`Test Rescue ${b.slug}`]);
  const on = await a.req('PUT', `/api/registry/animals/${petA.id}/publication`, { body: { publish: true } });
  assert.deepEqual(on.body, { animal_id: petA.id, publish: true, published_numbers: [number] });
  assert.equal((await names()).length, 2);
  // The organization's own switch removes all of it at once and brings it back.
  const offAll = await b.req('PATCH', '/api/registry/settings', { body: { publish_chips: false } });
  assert.equal(offAll.status, 200, offAll.raw);
  assert.equal(offAll.body.publish_chips, false);
  assert.deepEqual(await names(), [`Test Rescue ${a.slug}`]);
  await animal(b, { microchipNumber: chip() }); // a new chip while opted out stays out
  assert.equal((await b.req('PATCH', '/api/registry/settings', { body: { publish_chips: true } })).body.publish_chips, true);
  assert.equal((await names()).length, 2);
});

test('an unknown number and an opted-out number answer identically', async () => {
  const a = await makeOrg(t);
  const hidden = chip();
  const pet = await animal(a, { microchipNumber: hidden });
  await a.req('PUT', `/api/registry/animals/${pet.id}/publication`, { body: { publish: false } });
  const orgHidden = chip();
  const b = await makeOrg(t);
  await animal(b, { microchipNumber: orgHidden });
  await b.req('PATCH', '/api/registry/settings', { body: { publish_chips: false } });
  const unknown = chip();
  const strip = (r: { status: number; body: { results: unknown[] }; headers: Record<string, unknown> }) => ({
    status: r.status,
    body: { ...r.body, number: 'n' },
    type: r.headers['content-type'],
  });
  const want = strip(await anon(unknown));
  assert.deepEqual(want.body.results, []);
  assert.deepEqual(strip(await anon(hidden)), want);
  assert.deepEqual(strip(await anon(orgHidden)), want);
});

test('the organization profile reaches its published entries', async () => {
  const a = await makeOrg(t);
  const number = chip();
  await animal(a, { microchipNumber: number });
  await a.req('PATCH', '/api/settings/organization', { body: { name: 'Renamed Rescue', website: 'https://renamed.example' } });
  const refreshed = await a.req('PATCH', '/api/registry/settings', { body: {} });
  assert.equal(refreshed.status, 200, refreshed.raw);
  assert.equal(refreshed.body.published_profile.name, 'Renamed Rescue');
  const res = await anon(number);
  assert.equal(res.body.results[0].organization.name, 'Renamed Rescue');
  assert.equal(res.body.results[0].organization.website, 'https://renamed.example');
  // A profile change also travels with the next animal change.
  await a.req('PATCH', '/api/settings/organization', { body: { name: 'Renamed Again' } });
  const other = chip();
  await animal(a, { microchipNumber: other });
  for (const n of [number, other]) assert.equal((await anon(n)).body.results[0].organization.name, 'Renamed Again');
});

test('the lookup role can read the published columns and nothing else', async () => {
  const a = await makeOrg(t);
  const number = chip();
  await animal(a, { microchipNumber: number });
  const asReader = async (sql: string, params: unknown[] = []) => {
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL ROLE ${READER_ROLE}`);
      return (await client.query(sql, params)).rows;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };
  const lookup = lookupStatement(number, 10, 0);
  assert.equal((await asReader(lookup.sql, [...lookup.parameters])).length, 1);
  const denied = /permission denied/;
  await assert.rejects(asReader('SELECT id, name FROM animals LIMIT 1'), denied);
  await assert.rejects(asReader('SELECT id FROM people LIMIT 1'), denied);
  await assert.rejects(asReader('SELECT email FROM organizations LIMIT 1'), denied);
  await assert.rejects(asReader('SELECT * FROM registry_settings LIMIT 1'), denied);
  await assert.rejects(asReader('SELECT * FROM registry_searches LIMIT 1'), denied);
  // Not even the internal ids of the published table itself.
  await assert.rejects(asReader('SELECT organization_id FROM registry_chips LIMIT 1'), denied);
  await assert.rejects(asReader('SELECT animal_id FROM registry_chips LIMIT 1'), denied);
  await assert.rejects(asReader("INSERT INTO registry_searches (address_hash, number, answered) VALUES ('x', 'y', false)"), denied);
});

test('every search is logged with a hashed address; a keyed one also in its organization activity', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const number = chip();
  await animal(a, { microchipNumber: number });
  const missing = chip();
  await anon(number);
  await anon(missing);
  await b.req('GET', `/api/registry/microchips/${number}`, { key: b.keys.readOnly });
  const log = await t.db.query<{ number: string; answered: boolean; address_hash: string; organization_id: string | null }>(
    'SELECT number, answered, address_hash, organization_id FROM registry_searches WHERE number = ANY($1) ORDER BY id',
    [[number, missing]],
  );
  assert.deepEqual(
    log.map((r) => [r.number, r.answered, r.organization_id]),
    [
      [number, true, null],
      [missing, false, null],
      [number, true, b.id],
    ],
  );
  assert.ok(log.every((r) => /^[0-9a-f]{32}$/.test(r.address_hash) && r.address_hash === log[0]?.address_hash));
  assert.ok(!log.some((r) => r.address_hash.includes('127.0.0.1')));
  const activity = await t.db.query<{ organization_id: string; detail: unknown }>(
    "SELECT organization_id, detail FROM audit_log WHERE action = 'search' AND entity_type = 'registry_microchip' AND entity_id = $1",
    [number],
  );
  assert.deepEqual(activity, [{ organization_id: b.id, detail: { answered: true } }]);
});

test('keys: invalid 401, no Registry read 403, any key at the bare address 401, unknown organization 404, bad number 422', async () => {
  const a = await makeOrg(t);
  const number = chip();
  const path = `/api/registry/microchips/${number}`;
  assertErrorShape(path, await a.req('GET', path, { key: 'ark_live_notakey' }), 401);
  assertErrorShape(path, await a.req('GET', path, { key: await a.keyWith({ animals: 'admin' }) }), 403);
  const exact = await a.req('GET', path, { key: await a.keyWith({ registry: 'read' }) });
  assert.equal(exact.status, 200, exact.raw);
  assertErrorShape(path, await request(t, 'localhost', 'GET', path, { key: a.keys.admin }), 401);
  assertErrorShape(path, await request(t, 'nobody-here.localhost', 'GET', path, { key: null }), 404);
  for (const bad of ['---', '*.*', 'ÄÖÜ', 'A'.repeat(33), '12 34']) {
    const res = await anon(bad);
    if (bad === '12 34') {
      assert.equal(res.status, 200, `a space is a separator: ${res.raw}`);
      continue;
    }
    assertErrorShape(path, res, 422);
    assert.match(res.body.error, /number/, bad);
  }
  const odd = await anon('0A1B2C3D4E');
  assert.equal(odd.body.format, 'fdx_a_10_character');
  const de = await anon('276098100123456');
  assert.equal(de.body.country, 'DE');
});

test('keyless lookups have their own allowance per address, with RateLimit headers; a key uses its own', async (tc) => {
  holdMidMinute(tc);
  const small = await testApp({ registryLookupRateLimitPerMinute: 2 });
  try {
    const org = await makeOrg(small);
    const path = `/api/registry/microchips/${chip()}`;
    await request(small, org.host, 'GET', '/api/openapi.json', { key: null }); // the description check's own fetch, done first
    for (let i = 0; i < 3; i++) {
      const res = await request(small, 'localhost', 'GET', path, { key: null });
      assert.equal(res.headers['ratelimit-limit'], '2');
      assert.equal(res.headers['ratelimit-remaining'], String(Math.max(0, 1 - i)));
      if (i < 2) assert.equal(res.status, 200, res.raw);
      else assertErrorShape(path, res, 429);
    }
    // The shared keyless allowance is untouched by the lookup's, and a key counts in its own bucket.
    assert.equal((await request(small, org.host, 'GET', '/api/openapi.json', { key: null })).status, 200);
    const keyed = await org.req('GET', path, { key: org.keys.readOnly });
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers['ratelimit-limit'], '100000');
  } finally {
    await small.close();
  }
});

securitySuite('registry microchips', () => t, [
  {
    method: 'GET',
    path: () => '/api/registry/settings',
    area: 'registry',
    level: 'read',
    singleton: true,
    seed: async (o) => {
      await o.req('PATCH', '/api/registry/settings', { body: {} });
      return o.slug;
    },
  },
  {
    method: 'PATCH',
    path: () => '/api/registry/settings',
    body: { publish_chips: true },
    area: 'registry',
    level: 'admin',
    singleton: true,
  },
  {
    method: 'GET',
    path: async (o) => `/api/registry/animals/${(await animal(o, { microchipNumber: chip() })).id}/publication`,
    area: 'registry',
    level: 'read',
  },
  {
    method: 'PUT',
    path: async (o) => `/api/registry/animals/${(await animal(o, { microchipNumber: chip() })).id}/publication`,
    body: { publish: false },
    area: 'registry',
    level: 'write',
  },
]);

test('every chip an animal carries is published, not only the primary one; removing a chip unpublishes it', async () => {
  const org = await makeOrg(t);
  const primary = chip();
  const second = chip();
  const pet = await animal(org, { microchipNumber: primary });
  const added = await org.req('POST', `/api/animals/${pet.id}/microchips`, { body: { number: second } });
  assert.equal(added.status, 201, added.raw);
  assert.equal((await anon(primary)).body.results.length, 1);
  const found = await anon(second);
  assert.equal(found.status, 200, found.raw);
  assert.equal(found.body.results.length, 1);
  assert.equal(found.body.results[0].species, 'dog');
  const removed = await org.req('DELETE', `/api/animals/${pet.id}/microchips/${added.body.id}`);
  assert.ok(removed.status < 300, removed.raw);
  assert.equal((await anon(second)).body.results.length, 0);
  assert.equal((await anon(primary)).body.results.length, 1);
});

test('a write that touches nothing the copy shows still moves its last-seen day; a chipless animal publishes nothing', async () => {
  const org = await makeOrg(t);
  const number = chip();
  const pet = (await animal(org, { microchipNumber: number })).id;
  await t.db.query('UPDATE registry_chips SET last_seen = current_date - 3 WHERE organization_id = $1 AND animal_id = $2', [org.id, pet]);
  const before = await anon(number);
  assert.notEqual(before.body.results[0].last_seen, new Date().toISOString().slice(0, 10));
  assert.equal((await org.req('PATCH', `/api/v1/animals/${pet}`, { body: { notes: 'Loves the sofa.' } })).status, 200);
  const after = await anon(number);
  assert.equal(after.body.results[0].last_seen, (await t.db.query<{ d: string }>("SELECT to_char(current_date, 'YYYY-MM-DD') AS d"))[0]?.d);
  const plain = (await animal(org)).id;
  assert.equal((await org.req('PATCH', `/api/v1/animals/${plain}`, { body: { notes: 'No chip yet.' } })).status, 200);
  const rows = await t.db.query('SELECT 1 FROM registry_chips WHERE organization_id = $1 AND animal_id = $2', [org.id, plain]);
  assert.equal(rows.length, 0);
});
