/** Reading a registry flag's reviews and marks as lists. */
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
async function flag(org: TestOrg, personId: string) {
  const res = await org.req('POST', '/api/registry/flags', { body: { person_id: personId, category: 'do_not_adopt', evidence: 'E' } });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
const ok = (r: { status: number; raw: string }, status: number) => assert.equal(r.status, status, r.raw);

test("a flag's reviews and marks as pages: the raising organization reads every review, others only their own", async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const c = await makeOrg(t);
  const d = await makeOrg(t);
  const email = `flagged-${uniq()}@example.org`;
  const f = await flag(a, await person(a, { email }));
  const bp = await person(b, { email });
  const cp = await person(c, { email: email.toUpperCase() });
  const dp = await person(d, { email });
  const stranger = await person(d);
  ok(await b.req('POST', `/api/registry/flags/${f}/reviews`, { body: { person_id: bp, verdict: 'confirms', note: 'Same here' } }), 201);
  ok(await c.req('POST', `/api/registry/flags/${f}/reviews`, { body: { person_id: cp, verdict: 'disputes', note: 'Fine with us' } }), 201);
  ok(await b.req('POST', `/api/registry/flags/${f}/marks`, { body: { label: 'called them', person_id: bp } }), 201);
  for (const label of ['checked ID', 'second look', 'board informed'])
    ok(await a.req('POST', `/api/registry/flags/${f}/marks`, { body: { label } }), 201);
  const reviews = `/api/registry/flags/${f}/reviews`;
  const marks = `/api/registry/flags/${f}/marks`;

  // The raising organization: every review, paged, with the reviewers' public contacts.
  const all = await a.req('GET', reviews, { key: a.keys.readOnly });
  ok(all, 200);
  assert.deepEqual(
    all.body.results.map((r: any) => [r.verdict, r.note]),
    [
      ['confirms', 'Same here'],
      ['disputes', 'Fine with us'],
    ],
  );
  assert.deepEqual([all.body.limit, all.body.offset, all.body.has_more], [25, 0, false]);
  assert.equal(typeof all.body.results[0].organization.name, 'string');
  const p1 = await a.req('GET', `${reviews}?limit=1`);
  assert.deepEqual([p1.body.results.length, p1.body.has_more], [1, true]);
  const p2 = await a.req('GET', `${reviews}?limit=1&offset=1`);
  assert.deepEqual([p2.body.results[0].note, p2.body.has_more], ['Fine with us', false]);
  // Its own marks only, paged.
  const am = await a.req('GET', `${marks}?limit=2`);
  ok(am, 200);
  assert.deepEqual(
    am.body.results.map((m: any) => m.label),
    ['checked ID', 'second look'],
  );
  assert.equal(am.body.has_more, true);
  assert.deepEqual(
    (await a.req('GET', `${marks}?limit=2&offset=2`)).body.results.map((m: any) => m.label),
    ['board informed'],
  );

  // A reviewer reads its own review and its own marks, without naming its person again.
  assert.deepEqual(
    (await b.req('GET', reviews)).body.results.map((r: any) => r.note),
    ['Same here'],
  );
  assert.deepEqual((await b.req('GET', `${reviews}?offset=1`)).body.results, []);
  assert.deepEqual(
    (await b.req('GET', marks)).body.results.map((m: any) => m.label),
    ['called them'],
  );
  // An organization with a matching person but no review or mark: empty lists when it names its person.
  assert.deepEqual((await d.req('GET', `${reviews}?person_id=${dp}`)).body.results, []);
  assert.deepEqual((await d.req('GET', `${marks}?person_id=${dp}`)).body.results, []);
  // Otherwise 404, exactly as for a flag that does not exist.
  assertErrorShape(reviews, await d.req('GET', reviews), 404);
  assertErrorShape(marks, await d.req('GET', marks), 404);
  assertErrorShape(reviews, await d.req('GET', `${reviews}?person_id=${stranger}`), 404);
  assertErrorShape(marks, await d.req('GET', `${marks}?person_id=${stranger}`), 404);
  assertErrorShape(reviews, await d.req('GET', '/api/registry/flags/rfl_nothing/reviews'), 404);
  assertErrorShape(marks, await a.req('GET', '/api/registry/flags/rfl_nothing/marks'), 404);
  // Bad paging or ids: 422, the family's shape.
  for (const q of ['limit=0', 'limit=101', 'offset=-1', 'person_id=' + 'x'.repeat(65)]) {
    assertErrorShape(reviews, await a.req('GET', `${reviews}?${q}`), 422);
    assertErrorShape(marks, await a.req('GET', `${marks}?${q}`), 422);
  }
  // After the flag is withdrawn: the raising organization still reads it all; a reviewer still reads its own.
  ok(await a.req('PATCH', `/api/registry/flags/${f}`, { body: { status: 'withdrawn' } }), 200);
  assert.equal((await a.req('GET', reviews)).body.results.length, 2);
  assert.equal((await b.req('GET', reviews)).body.results.length, 1);
  assert.equal((await b.req('GET', marks)).body.results.length, 1);
  assertErrorShape(reviews, await d.req('GET', `${reviews}?person_id=${dp}`), 404);
});

const withFlag = async (o: TestOrg) => flag(o, await person(o));
securitySuite('registry flag reviews and marks', () => t, [
  { method: 'GET', path: async (o) => `/api/registry/flags/${await withFlag(o)}/reviews`, area: 'registry', level: 'read' },
  {
    method: 'GET',
    path: async (o) => {
      const id = await withFlag(o);
      ok(await o.req('POST', `/api/registry/flags/${id}/marks`, { body: { label: 'seen' } }), 201);
      return `/api/registry/flags/${id}/marks`;
    },
    area: 'registry',
    level: 'read',
  },
]);
