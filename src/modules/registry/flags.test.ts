import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
const uniq = () => `${process.pid}-${Date.now()}-${++n}`;

async function person(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Jo', lastName: `Doe${n}`, email: `jo-${uniq()}@example.org`, ...body },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
async function flag(org: TestOrg, personId: string, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/registry/flags', {
    body: { person_id: personId, category: 'do_not_adopt', evidence: 'EVIDENCE-TEXT court record 42', ...body },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; expires_on: string; matched_by: string[] };
}
const matches = (org: TestOrg, personId: string, key?: string) =>
  org.req('GET', `/api/registry/flags/matches?person_id=${personId}`, key ? { key } : {});

/** Three organizations: A flags a person; B has the same person (by one datum); C has nobody matching. */
async function world(shape: (k: number) => Record<string, unknown>) {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const c = await makeOrg(t);
  const k = ++n;
  await a.req('PATCH', '/api/settings/organization', { body: { email: 'intake@a.example' } });
  const email = `flagged-${uniq()}@example.org`;
  const flagged = await person(a, {
    firstName: 'Renée',
    lastName: `Stone${k}`,
    email,
    phone: `+1 202 555 ${String(1000 + (k % 9000))}`,
    address: { line1: '1 Main St', city: 'Springfield', country: 'US', postalCode: '20001-1234' },
  });
  const f = await flag(a, flagged);
  const mine = await person(b, {
    email: `other-${uniq()}@example.org`,
    ...(shape(k).email === true ? { email: email.toUpperCase() } : shape(k)),
  });
  const stranger = await person(c);
  return { a, b, c, f, flagged, mine, stranger, email };
}

test('a flag is seen by another organization only through its own matching person, without evidence', async () => {
  for (const match of [
    () => ({ email: true }),
    (k: number) => ({ phone: `(202) 555-${String(1000 + (k % 9000))}` }),
    (k: number) => ({
      firstName: 'renee',
      lastName: ` STONE${k} `,
      address: { line1: 'elsewhere', city: 'x', country: 'US', postalCode: '200011234' },
    }),
  ]) {
    const { a, b, c, f, mine, stranger } = await world(match);
    const res = await matches(b, mine, b.keys.readOnly);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.results.length, 1, JSON.stringify(match(0)));
    const m = res.body.results[0];
    assert.deepEqual(Object.keys(m).sort(), [
      'category',
      'expires_on',
      'flag_id',
      'matched_on',
      'raised_by',
      'raised_by_you',
      'raised_on',
      'reviews',
      'your_marks',
      'your_review',
    ]);
    assert.equal(m.flag_id, f.id);
    assert.equal(m.category, 'do_not_adopt');
    assert.equal(m.raised_by_you, false);
    assert.equal(m.raised_by.email, 'intake@a.example');
    assert.equal(m.matched_on.length, 1);
    for (const secret of ['EVIDENCE-TEXT', 'Stone', 'Renée', '555', 'flagged-', a.id])
      assert.ok(!res.raw.includes(secret), `${secret} leaked`);
    // The check agrees; an organization without a matching person sees nothing, and nobody reaches the flag itself.
    assert.deepEqual((await b.req('GET', `/api/registry/people/${mine}/check`)).body, { person_id: mine, warning: true, flags: 1 });
    assert.deepEqual((await c.req('GET', `/api/registry/people/${stranger}/check`)).body, {
      person_id: stranger,
      warning: false,
      flags: 0,
    });
    assert.deepEqual((await matches(c, stranger)).body.results, []);
    for (const org of [b, c]) {
      for (const url of [`/api/registry/flags/${f.id}`, `/api/registry/flags/${f.id}/history`])
        assertErrorShape(url, await org.req('GET', url), 404);
      assert.equal((await org.req('GET', '/api/registry/flags')).body.results.length, 0);
    }
    // Another organization's person id is no person here: it matches nothing, like an unknown one.
    assert.deepEqual((await matches(c, mine)).body.results, []);
    assertErrorShape(`/api/registry/people/${mine}/check`, await c.req('GET', `/api/registry/people/${mine}/check`), 404);
  }
});

test('the raising organization sees its flag whole; an expiry in the past is refused, the default is three years', async () => {
  const a = await makeOrg(t);
  const p = await person(a);
  const f = await flag(a, p);
  const year = new Date().getUTCFullYear();
  assert.equal(f.expires_on.slice(0, 4), String(year + 3));
  assert.deepEqual(f.matched_by, ['email']);
  const own = await a.req('GET', `/api/registry/flags/${f.id}`);
  assert.equal(own.body.evidence, 'EVIDENCE-TEXT court record 42');
  assert.deepEqual(
    (await matches(a, p)).body.results.map((m: { raised_by_you: boolean }) => m.raised_by_you),
    [true],
  );
  const past = await a.req('POST', '/api/registry/flags', { body: { person_id: p, category: 'other', expires_on: '2001-01-01' } });
  assertErrorShape('/api/registry/flags', past, 422);
  const bad = await a.req('POST', '/api/registry/flags', { body: { person_id: p, category: 'rude' } });
  assertErrorShape('/api/registry/flags', bad, 422);
  const nobody = await a.req('POST', '/api/registry/flags', { body: { person_id: 'per_nobody', category: 'other' } });
  assertErrorShape('/api/registry/flags', nobody, 422);
  assert.equal((await a.req('GET', '/api/registry/flags')).body.results.length, 1);
});

test('reviews: another organization with a match adds one; the raiser sees it, others see counts only', async () => {
  const { a, b, c, f, mine, stranger } = await world(() => ({ email: true }));
  const url = `/api/registry/flags/${f.id}/reviews`;
  // Without a matching person of its own, a flag is unknown: 404 as for a made-up id.
  assertErrorShape(url, await c.req('POST', url, { body: { person_id: stranger, verdict: 'confirms', note: 'x' } }), 404);
  assertErrorShape(
    url,
    await c.req('POST', '/api/registry/flags/rfl_nothing/reviews', { body: { person_id: stranger, verdict: 'confirms', note: 'x' } }),
    404,
  );
  const r = await b.req('POST', url, {
    body: { person_id: mine, verdict: 'confirms', note: 'REVIEW-NOTE returned two dogs' },
    key: b.keys.staff,
  });
  assert.equal(r.status, 201, r.raw);
  assert.equal(r.body.verdict, 'confirms');
  assertErrorShape(url, await b.req('POST', url, { body: { person_id: mine, verdict: 'disputes', note: 'again' } }), 409);
  assertErrorShape(url, await a.req('POST', url, { body: { person_id: mine, verdict: 'confirms', note: 'own' } }), 422);
  const own = await a.req('GET', `/api/registry/flags/${f.id}`);
  assert.equal(own.body.reviews.length, 1);
  assert.equal(own.body.reviews[0].note, 'REVIEW-NOTE returned two dogs');
  assert.equal(own.body.reviews[0].organization.name, `Test Rescue ${b.slug}`);
  const seen = (await matches(b, mine)).body.results[0];
  assert.deepEqual(seen.reviews, { confirms: 1, disputes: 0 });
  assert.equal(seen.your_review.note, 'REVIEW-NOTE returned two dogs');
});

test('marks are for their organization only', async () => {
  const { a, b, f, mine } = await world(() => ({ email: true }));
  const url = `/api/registry/flags/${f.id}/marks`;
  const mb = await b.req('POST', url, { body: { label: 'B-MARK called them', person_id: mine } });
  assert.equal(mb.status, 201, mb.raw);
  assertErrorShape(url, await b.req('POST', url, { body: { label: 'B-MARK called them', person_id: mine } }), 409);
  assertErrorShape(url, await b.req('POST', url, { body: { label: 'no person' } }), 404);
  const ma = await a.req('POST', url, { body: { label: 'A-MARK' } });
  assert.equal(ma.status, 201, ma.raw);
  const own = await a.req('GET', `/api/registry/flags/${f.id}`);
  assert.deepEqual(
    own.body.marks.map((m: { label: string }) => m.label),
    ['A-MARK'],
  );
  assert.ok(!own.raw.includes('B-MARK'));
  const seen = await matches(b, mine);
  assert.deepEqual(
    seen.body.results[0].your_marks.map((m: { label: string }) => m.label),
    ['B-MARK called them'],
  );
  assert.ok(!seen.raw.includes('A-MARK'));
  // Only the organization that made a mark removes it.
  const del = `/api/registry/flags/${f.id}/marks/${mb.body.id}`;
  assertErrorShape(del, await a.req('DELETE', del), 404);
  assert.equal((await b.req('DELETE', del)).status, 204);
  assert.deepEqual((await matches(b, mine)).body.results[0].your_marks, []);
});

test('an upheld dispute removes the flag everywhere at once; the history keeps every step and cannot be changed', async () => {
  const { a, b, f, mine } = await world(() => ({ email: true }));
  const d = await a.req('POST', `/api/registry/flags/${f.id}/disputes`, {
    body: { note: 'The person says it was someone else.' },
    key: a.keys.staff,
  });
  assert.equal(d.status, 201, d.raw);
  assert.equal(d.body.status, 'open');
  const decide = `/api/registry/flags/${f.id}/disputes/${d.body.id}`;
  assertErrorShape(decide, await a.req('PATCH', decide, { body: { status: 'upheld' }, key: a.keys.staff }), 403);
  assertErrorShape(decide, await b.req('PATCH', decide, { body: { status: 'upheld' } }), 404);
  assert.equal((await matches(b, mine)).body.results.length, 1);
  const up = await a.req('PATCH', decide, { body: { status: 'upheld', resolution_note: 'mistaken identity' } });
  assert.equal(up.status, 200, up.raw);
  assert.equal(up.body.status, 'upheld');
  assert.ok(up.body.resolved_at);
  assert.deepEqual((await matches(b, mine)).body.results, []);
  assert.equal((await b.req('GET', `/api/registry/people/${mine}/check`)).body.warning, false);
  const own = await a.req('GET', `/api/registry/flags/${f.id}`);
  assert.equal(own.body.status, 'removed');
  assert.deepEqual(own.body.matched_by, []);
  assertErrorShape(decide, await a.req('PATCH', decide, { body: { status: 'withdrawn' } }), 409);
  assertErrorShape(`/api/registry/flags/${f.id}`, await a.req('PATCH', `/api/registry/flags/${f.id}`, { body: { evidence: 'x' } }), 409);
  const h = await a.req('GET', `/api/registry/flags/${f.id}/history`);
  assert.deepEqual(
    h.body.results.map((r: { action: string }) => r.action),
    ['raised', 'dispute_opened', 'dispute_upheld', 'removed'],
  );
  await assert.rejects(t.db.query('UPDATE registry_flag_history SET action = $1 WHERE flag_id = $2', ['x', f.id]), /append-only/);
  await assert.rejects(t.db.query('DELETE FROM registry_flag_history WHERE flag_id = $1', [f.id]), /append-only/);
});

test('a withdrawn or expired flag matches nowhere', async () => {
  const { a, b, f, mine } = await world(() => ({ email: true }));
  const w = await a.req('PATCH', `/api/registry/flags/${f.id}`, { body: { status: 'withdrawn' } });
  assert.equal(w.status, 200, w.raw);
  assert.deepEqual((await matches(b, mine)).body.results, []);
  const second = await world(() => ({ email: true }));
  await t.db.query('UPDATE registry_flags SET expires_on = current_date WHERE organization_id = $1 AND id = $2', [
    second.a.id,
    second.f.id,
  ]);
  assert.deepEqual((await matches(second.b, second.mine)).body.results, []);
  assert.equal((await second.a.req('GET', `/api/registry/flags/${second.f.id}`)).body.expired, true);
});

const withFlag = async (o: TestOrg) => (await flag(o, await person(o))).id;
securitySuite('registry flags', () => t, [
  { method: 'POST', path: () => '/api/registry/flags', body: undefined, area: 'registry', level: 'write', seed: withFlag },
  { method: 'GET', path: () => '/api/registry/flags', area: 'registry', level: 'read', seed: withFlag },
  {
    method: 'GET',
    path: async (o) => {
      const p = await person(o);
      await flag(o, p);
      return `/api/registry/flags/matches?person_id=${p}`;
    },
    area: 'registry',
    level: 'read',
    singleton: true,
  },
  { method: 'GET', path: async (o) => `/api/registry/people/${await person(o)}/check`, area: 'registry', level: 'read' },
  { method: 'GET', path: async (o) => `/api/registry/flags/${await withFlag(o)}`, area: 'registry', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/registry/flags/${await withFlag(o)}`,
    body: { evidence: 'more' },
    area: 'registry',
    level: 'write',
  },
  { method: 'GET', path: async (o) => `/api/registry/flags/${await withFlag(o)}/history`, area: 'registry', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/registry/flags/${await withFlag(o)}/marks`,
    body: { label: 'seen' },
    area: 'registry',
    level: 'write',
  },
  {
    method: 'DELETE',
    path: async (o) => {
      const id = await withFlag(o);
      const m = await o.req('POST', `/api/registry/flags/${id}/marks`, { body: { label: 'x' } });
      return `/api/registry/flags/${id}/marks/${m.body.id as string}`;
    },
    area: 'registry',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (o) => `/api/registry/flags/${await withFlag(o)}/disputes`,
    body: { note: 'contested' },
    area: 'registry',
    level: 'write',
  },
  {
    method: 'PATCH',
    path: async (o) => {
      const id = await withFlag(o);
      const d = await o.req('POST', `/api/registry/flags/${id}/disputes`, { body: { note: 'contested' } });
      return `/api/registry/flags/${id}/disputes/${d.body.id as string}`;
    },
    body: { status: 'withdrawn' },
    area: 'registry',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (o) => `/api/registry/flags/${await withFlag(o)}/reviews`,
    body: { person_id: 'per_x', verdict: 'confirms', note: 'x' },
    area: 'registry',
    level: 'write',
  },
]);

test('ark seed across two organizations: the chips of both answer the lookup, and one flag matches a person in the other', async () => {
  const { seedOrganization } = await import('../../cli/seed.ts');
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  await seedOrganization(t.db, a.slug);
  await seedOrganization(t.db, b.slug);
  const names = (await t.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = ANY($1::text[])', [[a.id, b.id]])).map(
    (r) => r.name,
  );
  // A sample chip of the second organization is also one of the first's: the keyless lookup shows both.
  const animals = (await b.req('GET', '/api/v1/animals?perPage=100')).body.data as { microchipNumber: string | null }[];
  const chips = animals.map((x) => x.microchipNumber).filter((c): c is string => !!c);
  assert.ok(chips.length > 0, 'the seed chips animals');
  let both = 0;
  for (const c of chips) {
    const r = await b.req('GET', `/api/registry/microchips/${c}`, { key: null });
    assert.equal(r.status, 200, r.raw);
    const seen = new Set((r.body.results as { organization: { name: string } }[]).map((e) => e.organization.name));
    if (names.every((n) => seen.has(n))) both += 1;
  }
  assert.ok(both > 0, 'a chip recorded by both seeded organizations answers with both');
  // The flag: the second organization has a person matched by a live flag it did not raise.
  const people = (await b.req('GET', '/api/v1/people?perPage=100')).body.data as { id: string }[];
  const foreign: string[] = [];
  for (const p of people) {
    const m = await matches(b, p.id);
    assert.equal(m.status, 200, m.raw);
    for (const f of m.body.results as { raised_by_you: boolean; flag_id: string }[]) if (!f.raised_by_you) foreign.push(f.flag_id);
  }
  assert.ok(foreign.length >= 1, 'a flag raised elsewhere matches one of the seeded people');
  assert.equal((await b.req('GET', '/api/registry/flags')).body.results.length, 0, 'the second organization raised none itself');
});
