import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

interface Item {
  cursor: string;
  event: string;
  id: string;
  fields: Record<string, unknown>;
}
async function feed(
  org: TestOrg,
  after?: string,
  key?: string,
  extra = '',
): Promise<{ results: Item[]; next_cursor: string; has_more: boolean }> {
  const res = await org.req('GET', `/api/changes?limit=1000${after ? `&after=${after}` : ''}${extra}`, key ? { key } : {});
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

test('two transactions committing out of order: the feed gives commit order and a reader never skips the late one', async () => {
  const org = await makeOrg(t);
  const early = await t.db.pool.connect();
  const late = await t.db.pool.connect();
  try {
    const insert =
      'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields) ' +
      "VALUES ($1, 'animal.updated', 'animals', 'animal', $2, '{}')";
    // `early` starts first and writes first, but commits last.
    await early.query('BEGIN');
    await early.query(insert, [org.id, 'ani_started_first']);
    await late.query('BEGIN');
    await late.query(insert, [org.id, 'ani_started_second']);
    await late.query('COMMIT');
    // A reader polls now: it sees only the committed one, and keeps its cursor.
    const first = await feed(org);
    assert.deepEqual(
      first.results.map((r) => r.id),
      ['ani_started_second'],
    );
    await early.query('COMMIT');
    // Reading on from that cursor finds the change that committed later: numbered at commit, it comes after.
    const next = await feed(org, first.next_cursor);
    assert.deepEqual(
      next.results.map((r) => r.id),
      ['ani_started_first'],
    );
    const all = await feed(org);
    assert.deepEqual(
      all.results.map((r) => r.id),
      ['ani_started_second', 'ani_started_first'],
    );
  } finally {
    early.release();
    late.release();
  }
});

test('concurrent writers: pages read while they commit add up to every change, each once, in commit order', async () => {
  const org = await makeOrg(t);
  const made: string[] = [];
  const writers = Array.from({ length: 6 }, async (_, w) => {
    for (let i = 0; i < 5; i++) {
      const res = await org.req('POST', '/api/v1/animals', {
        body: { name: `W${w}-${i}`, species: 'Cat', status: 'Available', intakeDate: '2026-10-01' },
      });
      assert.equal(res.status, 201);
      made.push(res.body.id);
    }
  });
  const seen: string[] = [];
  let cursor = '0';
  let writing = true;
  const reader = (async () => {
    while (writing) {
      const page = await feed(org, cursor);
      for (const r of page.results) seen.push(r.id);
      cursor = page.next_cursor;
    }
  })();
  await Promise.all(writers);
  writing = false;
  await reader;
  const rest = await feed(org, cursor);
  for (const r of rest.results) seen.push(r.id);
  assert.equal(seen.length, made.length);
  assert.deepEqual([...seen].sort(), [...made].sort());
});

test('the feed carries the changed fields, narrows by area and shows only what the key may read', async () => {
  const org = await makeOrg(t);
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Pip', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' },
  });
  await org.req('PATCH', `/api/v1/animals/${a.body.id}`, { body: { status: 'Adopted', name: 'Pip 2' } });
  const p = await org.req('POST', '/api/v1/people', { body: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.org' } });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  await org.req('PATCH', `/api/v1/people/${p.body.id}`, { body: { phone: '+442071838750' } });
  const all = await feed(org);
  assert.deepEqual(
    all.results.map((r) => r.event),
    ['animal.created', 'animal.updated', 'animal.status_changed', 'person.created', 'person.updated'],
  );
  assert.equal(at(all.results, 1).fields.name, 'Pip 2');
  assert.equal(at(all.results, 2).fields.status, 'Adopted');
  assert.equal(at(all.results, 4).fields.phone, '+442071838750');
  const animalsOnly = await feed(org, undefined, await org.keyWith({ reports: 'read', animals: 'read' }));
  assert.deepEqual(
    animalsOnly.results.map((r) => r.event),
    ['animal.created', 'animal.updated', 'animal.status_changed'],
  );
  const narrowed = await feed(org, undefined, undefined, '&area=people');
  assert.deepEqual(
    narrowed.results.map((r) => r.event),
    ['person.created', 'person.updated'],
  );
  // Paging: limit and has_more.
  const page = await org.req('GET', '/api/changes?limit=2');
  assert.equal(page.body.results.length, 2);
  assert.equal(page.body.has_more, true);
  const rest = await feed(org, page.body.next_cursor);
  assert.equal(rest.results.length, 3);
  const bad = await org.req('GET', '/api/changes?after=yesterday');
  assertErrorShape('/api/changes', bad, 422);
});

securitySuite('change feed', () => t, [
  {
    method: 'GET',
    path: () => '/api/changes',
    area: 'reports',
    level: 'read',
    seed: async (o) => {
      const res = await o.req('POST', '/api/v1/animals', {
        body: { name: 'S', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' },
      });
      return res.body.id;
    },
  },
]);
