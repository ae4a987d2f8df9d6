import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const tagged = async (org: TestOrg) => {
  const p = await person(org, { tags: ['volunteer'] });
  return `/api/people/${p}/tags/volunteer`;
};

test("a person's tags: list, add, replace, remove; the same list as Family A's tags; audited with before/after", async () => {
  const org = await makeOrg(t);
  const p = await person(org, { tags: ['Volunteer'] });
  const url = `/api/people/${p}/tags`;
  assert.deepEqual((await org.req('GET', url)).body, { person_id: p, tags: ['Volunteer'] });
  const add = await org.req('POST', url, { body: { tag: '  monthly   donor ' } });
  assert.equal(add.status, 201, add.raw);
  assert.deepEqual(add.body.tags, ['Volunteer', 'monthly donor']);
  // The same word in another case is the tag already carried.
  assert.deepEqual((await org.req('POST', url, { body: { tag: 'volunteer' } })).body.tags, ['Volunteer', 'monthly donor']);
  assert.deepEqual((await org.req('GET', `/api/v1/people/${p}`)).body.tags, ['Volunteer', 'monthly donor']);
  const put = await org.req('PUT', url, { body: { tags: ['foster', 'Foster', 'board'] } });
  assert.equal(put.status, 200, put.raw);
  assert.deepEqual(put.body.tags, ['foster', 'board']);
  assert.equal((await org.req('DELETE', `${url}/BOARD`)).status, 204);
  assert.deepEqual((await org.req('GET', url)).body.tags, ['foster']);
  assertErrorShape(url, await org.req('DELETE', `${url}/board`), 404);
  // Bad input: the family's error shape, nothing changed.
  for (const body of [{ tag: '' }, { tag: '   ' }, { tag: 'x'.repeat(51) }, { tag: 3 }, { tag: 'ok', extra: 1 }])
    assertErrorShape(url, await org.req('POST', url, { body }), 422);
  assertErrorShape(url, await org.req('POST', url, { body: {} }), 400);
  assertErrorShape(url, await org.req('PUT', url, { body: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) } }), 422);
  assertErrorShape(url, await org.req('PUT', url, { body: { tags: ['ok', ' '] } }), 422);
  assert.deepEqual((await org.req('GET', url)).body.tags, ['foster']);
  // At most 50 tags.
  await org.req('PUT', url, { body: { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) } });
  assertErrorShape(url, await org.req('POST', url, { body: { tag: 'one more' } }), 422);
  // Unknown, other organization's, deleted person: 404.
  assertErrorShape(url, await org.req('GET', '/api/people/per_none/tags'), 404);
  const other = await makeOrg(t);
  assertErrorShape(url, await other.req('POST', url, { body: { tag: 'x' } }), 404);
  // Audited with before/after, and in the change feed.
  const act = await org.req('GET', `/api/activity?entity_type=person&entity_id=${p}&limit=100`);
  const firstAdd = act.body.results.filter((e: any) => e.action === 'update').at(-1);
  assert.deepEqual(firstAdd.changes, { tags: { before: ['Volunteer'], after: ['Volunteer', 'monthly donor'] } });
  // An add that changes nothing writes no entry: 1 add, 1 replace, 1 remove, 1 replace of 50.
  assert.equal(act.body.results.filter((e: any) => e.action === 'update').length, 4);
});

test('concurrent adds to one person: every tag kept', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const res = await Promise.all(['a', 'b', 'c', 'd'].map((tag) => org.req('POST', `/api/people/${p}/tags`, { body: { tag } })));
  assert.ok(res.every((r) => r.status === 201));
  assert.deepEqual([...(await org.req('GET', `/api/people/${p}/tags`)).body.tags].sort(), ['a', 'b', 'c', 'd']);
});

test('tags in use with counts, and the people carrying one; merged people answer 404 with merged_into', async () => {
  const org = await makeOrg(t);
  const a = await person(org, { tags: ['Volunteer', 'donor'] });
  const b = await person(org, { tags: ['volunteer'] });
  const c = await person(org, { tags: ['volunteer', 'board'] });
  const gone = await person(org, { tags: ['board'] });
  assert.equal((await org.req('DELETE', `/api/v1/people/${gone}`)).status, 204);
  const counts = await org.req('GET', '/api/people/tags');
  assert.equal(counts.status, 200, counts.raw);
  assert.deepEqual(counts.body.results, [
    { tag: 'volunteer', people: 3 },
    { tag: 'board', people: 1 },
    { tag: 'donor', people: 1 },
  ]);
  const page = await org.req('GET', '/api/people/tags?limit=1&offset=1');
  assert.deepEqual([page.body.results[0].tag, page.body.has_more, page.body.limit, page.body.offset], ['board', true, 1, 1]);
  const by = await org.req('GET', '/api/people/by-tag/VOLUNTEER');
  assert.equal(by.status, 200, by.raw);
  assert.deepEqual(
    by.body.results.map((r: any) => r.id),
    [c, b, a],
  );
  assert.equal(typeof by.body.results[0].display_name, 'string');
  assertErrorShape('/api/people/by-tag', await org.req('GET', '/api/people/by-tag/nobody'), 404);
  assert.deepEqual((await org.req('GET', '/api/people/by-tag/volunteer?offset=5')).body.results, []);
  assertErrorShape('/api/people/tags', await org.req('GET', '/api/people/tags?limit=0'), 422);
  // Another organization sees none of it.
  const other = await makeOrg(t);
  assert.deepEqual((await other.req('GET', '/api/people/tags')).body.results, []);
  assertErrorShape('/api/people/by-tag', await other.req('GET', '/api/people/by-tag/volunteer'), 404);
  // A merged person: 404 with the survivor.
  const merged = await org.req('POST', `/api/people/${a}/merge`, { body: { into: b } });
  assert.equal(merged.status, 201, merged.raw);
  const r = await org.req('GET', `/api/people/${a}/tags`);
  assertErrorShape('/api/people', r, 404);
  assert.equal(r.body.merged_into, b);
  assertErrorShape('/api/people', await org.req('POST', `/api/people/${a}/tags`, { body: { tag: 'x' } }), 404);
});

securitySuite('people tags', () => t, [
  {
    method: 'GET',
    path: () => '/api/people/tags',
    area: 'people',
    level: 'read',
    seed: async (o) => {
      const tag = `only-${o.slug}`;
      await person(o, { tags: [tag] });
      return tag;
    },
  },
  {
    method: 'GET',
    path: async (o) => {
      await tagged(o);
      return '/api/people/by-tag/volunteer';
    },
    area: 'people',
    level: 'read',
  },
  { method: 'GET', path: async (o) => `/api/people/${await person(o)}/tags`, area: 'people', level: 'read' },
  { method: 'PUT', path: async (o) => `/api/people/${await person(o)}/tags`, body: { tags: ['x'] }, area: 'people', level: 'write' },
  { method: 'POST', path: async (o) => `/api/people/${await person(o)}/tags`, body: { tag: 'x' }, area: 'people', level: 'write' },
  { method: 'DELETE', path: tagged, area: 'people', level: 'write' },
]);
