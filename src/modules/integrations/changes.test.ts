import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { awaitHorizon } from '../../platform/changes.ts';

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

/** Waits until every transaction begun so far has ended: the feed then holds every change committed so far. */
async function settled() {
  assert.ok((await awaitHorizon(t.db, 10_000)).passed, 'a transaction elsewhere stayed open for 10 s');
}

test('a transaction still open holds the feed back: what committed after it began waits, and a reader gets both once', async () => {
  const org = await makeOrg(t);
  const a = await t.db.pool.connect();
  const b = await t.db.pool.connect();
  try {
    const insert =
      'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields) ' +
      "VALUES ($1, 'animal.updated', 'animals', 'animal', $2, '{}')";
    // A begins and writes first, but commits last; B begins after A, writes and commits.
    await a.query('BEGIN');
    await a.query(insert, [org.id, 'ani_a_commits_last']);
    await b.query('BEGIN');
    await b.query(insert, [org.id, 'ani_b_commits_first']);
    await b.query('COMMIT');
    // B's change is committed and visible: a reader ordering by pos or txid alone would return it now and put its cursor
    // past A's, which would then be skipped.
    const visible = await t.db.query<{ entity_id: string }>(
      'SELECT entity_id FROM ark_changes WHERE organization_id = $1 ORDER BY txid, pos',
      [org.id],
    );
    assert.deepEqual(
      visible.map((r) => r.entity_id),
      ['ani_b_commits_first'],
    );
    // The feed does not: A is below it and still running, so the cursor stays before A.
    const first = await feed(org);
    assert.deepEqual(first.results, []);
    assert.equal(first.next_cursor, '0');
    const alsoFirst = await org.req('GET', '/api/changes?limit=1');
    assert.deepEqual(alsoFirst.body.results, []);
    await a.query('COMMIT');
    await settled();
    // Reading on from the stored cursor: both, A's first (its transaction began first), each once.
    const next = await feed(org, first.next_cursor);
    assert.deepEqual(
      next.results.map((r) => r.id),
      ['ani_a_commits_last', 'ani_b_commits_first'],
    );
    const after = await feed(org, next.next_cursor);
    assert.deepEqual(after.results, []);
    assert.equal(after.next_cursor, next.next_cursor);
    // Page by page (limit 1), following the cursors: the same two, once each.
    const paged: string[] = [];
    let cursor = '0';
    for (let i = 0; i < 4; i++) {
      const page = await org.req('GET', `/api/changes?limit=1&after=${cursor}`);
      paged.push(...page.body.results.map((r: Item) => r.id));
      cursor = page.body.next_cursor;
    }
    assert.deepEqual(paged, ['ani_a_commits_last', 'ani_b_commits_first']);
  } finally {
    await a.query('ROLLBACK').catch(() => undefined);
    a.release();
    b.release();
  }
});

test('a rolled-back change never appears, and the feed reads on past it', async () => {
  const org = await makeOrg(t);
  const c = await t.db.pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(
      'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields) ' +
        "VALUES ($1, 'animal.updated', 'animals', 'animal', 'ani_gone', '{}')",
      [org.id],
    );
    const res = await org.req('POST', '/api/v1/animals', {
      body: { name: 'Kept', species: 'Cat', status: 'Available', intakeDate: '2026-10-01' },
    });
    assert.equal(res.status, 201);
    assert.deepEqual((await feed(org)).results, [], 'held back while the earlier transaction runs');
    await c.query('ROLLBACK');
    await settled();
    assert.deepEqual(
      (await feed(org)).results.map((r) => r.id),
      [res.body.id],
    );
  } finally {
    c.release();
  }
});

test('cursors handed out before migration 1430 (commit numbers) read on exactly where they stopped', async () => {
  const org = await makeOrg(t);
  // Two changes as the old commit trigger left them: numbered, in commit order (the second committed first).
  await t.db.query(
    `INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, commit_seq)
     VALUES ($1, 'animal.created', 'animals', 'animal', 'ani_old_2', '{}', 42),
            ($1, 'animal.created', 'animals', 'animal', 'ani_old_1', '{}', 41)`,
    [org.id],
  );
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'New', species: 'Cat', status: 'Available', intakeDate: '2026-10-01' },
  });
  await settled();
  const all = await feed(org);
  assert.deepEqual(
    all.results.map((r) => r.id),
    ['ani_old_1', 'ani_old_2', res.body.id],
  );
  const oldCursor = at(all.results, 0).cursor;
  assert.match(oldCursor, /^41-\d+$/);
  assert.match(at(all.results, 2).cursor, /^1\d{12,}-\d+$/, 'new positions are above every commit number');
  const on = await feed(org, oldCursor);
  assert.deepEqual(
    on.results.map((r) => r.id),
    ['ani_old_2', res.body.id],
  );
  const fromLastOld = await feed(org, at(all.results, 1).cursor);
  assert.deepEqual(
    fromLastOld.results.map((r) => r.id),
    [res.body.id],
  );
  assert.deepEqual((await feed(org, at(all.results, 2).cursor)).results, []);
  // Not a cursor: refused, clearly.
  const tooBig = await org.req('GET', '/api/changes?after=9999999999999999999-1');
  assertErrorShape('/api/changes', tooBig, 400);
  const malformed = await org.req('GET', '/api/changes?after=12.5');
  assertErrorShape('/api/changes', malformed, 422);
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
  await settled();
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
  await settled();
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
      // The change shows once every transaction begun before it has ended (another test's import may still run).
      await settled();
      return res.body.id;
    },
  },
]);
