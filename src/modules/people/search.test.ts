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

/**
 * Rows of the search's tables that differ from what the organization's live people make (none when in step): the
 * contact suffixes with their `nlen`, each name's count, and a name's suffixes for every name with people.
 */
async function outOfStep(orgId: string): Promise<number> {
  const rows = await t.db.query<{ n: string }>(
    `WITH want AS (SELECT x.nlen, x.term, p.id AS person_id, p.created_at, x.word
                     FROM people p, people_contact_entries(p.email, p.phone, p.name_search) x
                    WHERE p.organization_id = $1 AND p.deleted_at IS NULL),
          have AS (SELECT nlen, term, person_id, created_at, word FROM people_contact_terms WHERE organization_id = $1),
          counts AS (SELECT name_search, sum(n) AS n FROM people_name_counts WHERE organization_id = $1 GROUP BY 1 HAVING sum(n) <> 0),
          live AS (SELECT name_search, count(*) AS n FROM people WHERE organization_id = $1 AND deleted_at IS NULL GROUP BY 1),
          names AS (SELECT x.term, n.name_search, x.word FROM (SELECT DISTINCT name_search FROM people_name_counts
                     WHERE organization_id = $1) n, ark_search_suffixes(n.name_search, 3) x)
     SELECT (SELECT count(*) FROM ((SELECT * FROM have EXCEPT SELECT * FROM want)
                                   UNION ALL (SELECT * FROM want EXCEPT SELECT * FROM have)) d)
          + (SELECT count(*) FROM ((SELECT * FROM counts EXCEPT SELECT * FROM live)
                                   UNION ALL (SELECT * FROM live EXCEPT SELECT * FROM counts)) e)
          + (SELECT count(*) FROM ((SELECT term, name_search, word FROM people_name_suffixes WHERE organization_id = $1
                                     EXCEPT SELECT * FROM names)
                                    UNION ALL (SELECT * FROM names EXCEPT SELECT term, name_search, word FROM people_name_suffixes
                                     WHERE organization_id = $1)) f) AS n`,
    [orgId],
  );
  return Number(rows[0]?.n);
}

/** The people list's answer to a query string: the ids of the page and the total. */
async function search(org: TestOrg, qs: string): Promise<{ ids: string[]; total: number }> {
  const res = await org.req('GET', `/api/v1/people?${qs}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { ids: res.body.data.map((p: { id: string }) => p.id) as string[], total: res.body.meta.total as number };
}

test('q: part of any word, exact totals from the suffix table, kept in step on create, update, delete, merge and undo', async () => {
  const org = await makeOrg(t);
  const q = (qs: string) => search(org, qs);
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

test('names and contacts: an email repeating the name counts once, a word found only in an email or phone counts its person', async () => {
  const org = await makeOrg(t);
  const q = (qs: string) => search(org, qs);
  // Two people of one name (one count of two), an email that repeats the name, one that holds the word alone.
  const a = await person(org, { firstName: 'Carol', lastName: 'Smith', email: 'carol.smith1@example.org', phone: '617 555 0100' });
  const b = await person(org, { firstName: 'Carol', lastName: 'Smith', email: 'c.smith@example.org' });
  const c = await person(org, { firstName: 'Dana', lastName: 'Reyes', email: 'smithy.fan@example.net' });
  const d = await person(org, { firstName: 'Eli', lastName: 'Stone', email: 'eli@smith.example' });
  assert.equal(await outOfStep(org.id), 0);
  const counts = await t.db.query<{ n: string }>(
    'SELECT sum(n) AS n FROM people_name_counts WHERE organization_id = $1 AND name_search = $2',
    [org.id, 'carol smith'],
  );
  assert.equal(Number(counts[0]?.n), 2);

  // "smith": both Carols by their name (their emails are not counted again), Dana and Eli by their email alone.
  const smith = await q('q=smith');
  assert.equal(smith.total, 4);
  // Whole words first (the Carols by their name, Eli's "@smith."), newest first among equals; Dana's "smithy" last.
  assert.deepEqual(smith.ids, [d, b, a, c]);
  // Pages of it keep the order and the total; a page past the end keeps the total.
  assert.deepEqual((await q('q=smith&perPage=2&page=2')).ids, [a, c]);
  assert.deepEqual(await q('q=smith&perPage=2&page=3'), { ids: [], total: 4 });
  // A longer word than the name holds: only the email that has it.
  assert.deepEqual(await q('q=smith1'), { ids: [a], total: 1 });
  assert.deepEqual(await q('q=carol.smith'), { ids: [a], total: 1 });
  // The phone's digits, and part of the name only.
  assert.deepEqual(await q('q=5550100'), { ids: [a], total: 1 });
  assert.equal((await q('q=aro')).total, 2);
  // The same through the general path (a second word, a filter) agrees.
  assert.equal((await q('q=smith%20example')).total, 4);
  assert.equal((await q('q=smith&role=donor')).total, 0);

  // A rename moves the count between names and the email's suffixes between "in the name" and not.
  assert.equal((await org.req('PATCH', `/api/v1/people/${b}`, { body: { lastName: 'Jones' } })).status, 200);
  assert.equal(await outOfStep(org.id), 0);
  const after = await q('q=smith');
  assert.equal(after.total, 4, 'Carol Jones still matches through c.smith@');
  assert.deepEqual(after.ids, [d, b, a, c], 'whole words first, newest first among them');
  assert.deepEqual((await q('q=jones')).ids, [b]);
  // An email change of a person whose name holds the word leaves the count alone; a delete takes one away.
  assert.equal((await org.req('PATCH', `/api/v1/people/${a}`, { body: { email: 'carol@else.example' } })).status, 200);
  assert.equal((await q('q=smith')).total, 4);
  assert.equal((await org.req('DELETE', `/api/v1/people/${a}`)).status, 204);
  assert.equal((await q('q=smith')).total, 3);
  assert.equal(await outOfStep(org.id), 0);
  // A name no one has any longer keeps its suffixes and finds no one.
  assert.equal((await q('q=carol')).total, 1);
  assert.equal((await q('q=smi')).total, 3);
});
