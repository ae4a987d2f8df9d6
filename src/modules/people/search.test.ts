import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}): Promise<string> {
  n++;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Ana', lastName: 'Lopez', email: `ana${n}@example.com`, ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** Rows of the suffix table that differ from the suffixes of the organization's live people (none when in step). */
async function outOfStep(orgId: string): Promise<number> {
  const rows = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM (
       (SELECT term, person_id, created_at, word FROM people_search_terms WHERE organization_id = $1
        EXCEPT SELECT x.term, p.id, p.created_at, x.word FROM people p, ark_search_suffixes(p.search, 3) x
                WHERE p.organization_id = $1 AND p.deleted_at IS NULL)
       UNION ALL
       (SELECT x.term, p.id, p.created_at, x.word FROM people p, ark_search_suffixes(p.search, 3) x
         WHERE p.organization_id = $1 AND p.deleted_at IS NULL
        EXCEPT SELECT term, person_id, created_at, word FROM people_search_terms WHERE organization_id = $1)) d`,
    [orgId],
  );
  return Number(rows[0]?.n);
}

test('q: part of any word, exact totals from the suffix table, kept in step on create, update, delete, merge and undo', async () => {
  const org = await makeOrg(t);
  const q = async (qs: string) => {
    const res = await org.req('GET', `/api/v1/people?${qs}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ids: res.body.data.map((p: { id: string }) => p.id) as string[], total: res.body.meta.total as number };
  };
  const smith = await person(org, { firstName: 'Carol', lastName: 'Smith', email: 'carol@example.org', roles: ['donor'] });
  const smithson = await person(org, { firstName: 'Dan', lastName: 'Smithson', email: 'dan.smithson@example.org' });
  const obrien = await person(org, { firstName: 'Zoë', lastName: "O'Brien", email: 'zoe@else.net', phone: '+1 503 555 0142' });
  assert.equal(await outOfStep(org.id), 0);

  // Part of a word anywhere (not only its start), every word must match, any order.
  assert.equal((await q('q=mith')).total, 2);
  assert.equal((await q('q=ithso')).total, 1);
  assert.equal((await q('q=SMITH%20carol')).total, 1);
  assert.equal((await q('q=example.org')).total, 2);
  assert.equal((await q('q=son@exa')).total, 1, 'within the email');
  assert.equal((await q('q=smithcarol')).total, 0, 'a word never spans two pieces of the text');
  assert.equal((await q(`q=${encodeURIComponent("o'brien")}`)).total, 1);
  // Phone digits however written, and the phone as stored.
  assert.equal((await q(`q=${encodeURIComponent('555-0142')}`)).total, 1);
  assert.equal((await q(`q=${encodeURIComponent('+1503')}`)).total, 1);
  // Short and accented words are matched on the rows, alone or beside a word the table answers.
  assert.equal((await q('q=zo%C3%AB')).total, 1);
  assert.equal((await q('q=zo%C3%AB%20brien')).total, 1);
  assert.equal((await q('q=da%20smith')).total, 1);
  assert.equal((await q('q=mi')).total, 2);
  // With the other filters.
  assert.deepEqual((await q('q=smith&role=donor')).ids, [smith]);
  assert.equal((await q('q=smith&tag=vip')).total, 0);
  // Relevance: the whole word first although the partial match is newer; a page past the end keeps the total.
  assert.deepEqual((await q('q=smith')).ids, [smith, smithson]);
  assert.deepEqual((await q('q=smith&perPage=1&page=2')).ids, [smithson]);
  const past = await q('q=smith&perPage=1&page=9');
  assert.deepEqual(past, { ids: [], total: 2 });

  // A rename moves the person between searches.
  const renamed = await org.req('PATCH', `/api/v1/people/${smithson}`, { body: { lastName: 'Jones', email: 'dan@example.org' } });
  assert.equal(renamed.status, 200);
  assert.equal((await q('q=smith')).total, 1);
  assert.deepEqual((await q('q=jones')).ids, [smithson]);
  // A write that leaves the search text alone leaves the table alone.
  assert.equal((await org.req('PATCH', `/api/v1/people/${smith}`, { body: { notes: 'smithy' } })).status, 200);
  assert.equal((await q('q=smithy')).total, 0);
  assert.equal(await outOfStep(org.id), 0);

  // A merge hides the merged person; the undo brings it back.
  const merge = await org.req('POST', `/api/people/${obrien}/merge`, { body: { into: smith } });
  assert.equal(merge.status, 201, JSON.stringify(merge.body));
  assert.equal((await q('q=brien')).total, 0);
  assert.equal(await outOfStep(org.id), 0);
  assert.equal((await org.req('POST', `/api/people/merges/${merge.body.id}/undo`)).status, 200);
  assert.deepEqual((await q('q=brien')).ids, [obrien]);
  assert.equal(await outOfStep(org.id), 0);

  // A delete removes the person's suffixes.
  assert.equal((await org.req('DELETE', `/api/v1/people/${smith}`)).status, 204);
  assert.equal((await q('q=carol')).total, 0);
  assert.equal(await outOfStep(org.id), 0);

  // Another organization's people are never found.
  const other = await makeOrg(t);
  await person(other, { lastName: 'Jones' });
  assert.deepEqual((await q('q=jones')).ids, [smithson]);
});

test('a whole-word match is told by what follows the word: punctuation and non-letters end it, letters, digits and _ do not', async () => {
  const org = await makeOrg(t);
  const q = async (qs: string) => {
    const res = await org.req('GET', `/api/v1/people?${qs}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.map((p: { lastName: string | null }) => p.lastName) as string[];
  };
  // Made oldest first: the whole-word matches are the older ones, so only relevance puts them first.
  for (const lastName of ['Kell-Hart', 'Kell.', 'Kell—Ray', 'Kell', 'Kell7', 'Kell_x', 'Kellж', 'Kelly']) await person(org, { lastName });
  const found = await q('q=kell&perPage=100');
  assert.equal(found.length, 8);
  assert.deepEqual(found.slice(0, 4).sort(), ['Kell', 'Kell-Hart', 'Kell.', 'Kell—Ray'].sort(), found.join(', '));
  // Among equals, newest first.
  assert.deepEqual(found.slice(4), ['Kelly', 'Kellж', 'Kell_x', 'Kell7']);
  assert.deepEqual(found.slice(0, 4), ['Kell', 'Kell—Ray', 'Kell.', 'Kell-Hart']);
});
