// The staff app's animal routes: GET /api/animals (name search folded for case and accents, care state and status
// filters, place name, photo), GET and PATCH /api/animals/{id}/details (species, sex, intake date, breed, colour).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function animal(org: TestOrg, name: string, more: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name, species: 'dog', status: 'Available', intakeDate: '2026-01-02', ...more },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name).sort();

test('the name search: part of a name, any case, accents ignored, every word; with care state and status filters', async () => {
  const org = await makeOrg(t);
  await animal(org, 'Zoé');
  await animal(org, 'Chloë Belle', { publicName: 'Sunny' });
  await animal(org, 'Max');
  await animal(org, 'Maxine', { status: 'Adopted' });
  await animal(org, '100%_dog');
  const q = async (query: string) => {
    const res = await org.req('GET', `/api/animals?${query}`);
    assert.equal(res.status, 200, res.raw);
    return res.body;
  };
  assert.deepEqual(names(await q('q=zoe')), ['Zoé']);
  assert.deepEqual(names(await q('q=ZO')), ['Zoé']);
  assert.deepEqual(names(await q('q=chloe%20bel')), ['Chloë Belle']);
  assert.deepEqual(names(await q('q=sunny')), ['Chloë Belle'], 'the public name too');
  assert.deepEqual(names(await q('q=max')), ['Max', 'Maxine']);
  assert.deepEqual(names(await q('q=max&care_state=in_care&care_state=on_hold')), ['Max']);
  assert.deepEqual(names(await q('q=max&status=Adopted')), ['Maxine']);
  assert.deepEqual(names(await q('q=%25_')), ['100%_dog'], 'LIKE wildcards are literal');
  assert.deepEqual(names(await q('q=nobody')), []);
  const page = await q('limit=2');
  assert.equal(page.results.length, 2);
  assert.equal(page.has_more, true);
  assert.equal(page.total, 5);
  assert.equal((await q('q=max')).total, 2);
  const row = page.results[0];
  assert.deepEqual(Object.keys(row).sort(), [
    'breed',
    'care_state',
    'colour',
    'created_at',
    'date_of_birth',
    'id',
    'intake_date',
    'is_public',
    'location_id',
    'location_name',
    'microchip_number',
    'name',
    'photo_url',
    'public_description',
    'public_name',
    'sex',
    'species',
    'status',
    'updated_at',
  ]);
  for (const bad of ['status=Nope', 'care_state=gone', 'limit=0', 'limit=101', `q=${'x'.repeat(101)}`, 'q=']) {
    assertErrorShape('/api/x', await org.req('GET', `/api/animals?${bad}`), 422);
  }
});

test('the list names the kennel as a person reads it', async () => {
  const org = await makeOrg(t);
  const loc = await org.req('POST', '/api/animals/locations', { body: { name: 'Main shelter', type: 'shelter' } });
  assert.equal(loc.status, 201, loc.raw);
  const unit = await org.req('POST', '/api/animals/housing-units', {
    body: { location_id: loc.body.id, name: 'Kennel 4', type: 'kennel', capacity: 2 },
  });
  assert.equal(unit.status, 201, unit.raw);
  const id = await animal(org, 'Kenny', { locationId: unit.body.id });
  const d = await org.req('GET', `/api/animals/${id}/details`);
  assert.equal(d.status, 200, d.raw);
  assert.equal(d.body.location_name, 'Main shelter · Kennel 4');
});

test('PATCH details: species, sex, intake date, breed and colour; before/after in the activity; bad input changes nothing', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const id = await animal(org, 'Chip');
  const patch = (body: unknown) => org.req('PATCH', `/api/animals/${id}/details`, { body });
  for (const body of [
    { sex: 'x' },
    { species: '' },
    { intake_date: '2999-01-01' },
    { intake_date: 'soon' },
    { name: 'No' },
    { breed: 'x'.repeat(101) },
  ]) {
    assertErrorShape('/api/x', await patch(body), 422);
  }
  const same = (await org.req('GET', `/api/v1/animals/${id}`)).body;
  assert.deepEqual([same.sex, same.breed, same.intakeDate], ['unknown', null, '2026-01-02']);
  const res = await patch({ sex: 'male', breed: 'Labrador Retriever', colour: 'Black', intake_date: '2026-01-01', species: 'Dog' });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    [res.body.sex, res.body.breed, res.body.colour, res.body.intake_date, res.body.species],
    ['male', 'Labrador Retriever', 'Black', '2026-01-01', 'Dog'],
  );
  const a = (await org.req('GET', `/api/v1/animals/${id}`)).body;
  assert.deepEqual([a.sex, a.breed, a.intakeDate, a.species], ['male', 'Labrador Retriever', '2026-01-01', 'Dog']);
  const act = await org.req('GET', `/api/activity?entity_type=animal&entity_id=${id}`);
  const row = act.body.results.find((e: { changes: Record<string, unknown> | null }) => e.changes?.sex);
  assert.ok(row, act.raw);
  assert.deepEqual(row.changes.sex, { before: 'unknown', after: 'male' });
  assert.deepEqual(row.changes.breed, { before: null, after: 'Labrador Retriever' });
  const cleared = await patch({ breed: '', colour: null });
  assert.deepEqual([cleared.body.breed, cleared.body.colour], [null, null]);
  assertErrorShape('/api/x', await org.req('PATCH', '/api/animals/ani_nobody/details', { body: { sex: 'male' } }), 404);
  // The Family A list's total follows a species change (the tallies move with it).
  assert.equal((await org.req('GET', '/api/v1/animals?species=dog')).body.meta.total, 1);
});

securitySuite('animals for the staff app', () => t, [
  { method: 'GET', path: () => '/api/animals', area: 'animals', level: 'read', seed: async (org) => animal(org, `Seen ${org.slug}`) },
  { method: 'GET', path: async (org) => `/api/animals/${await animal(org, 'One')}/details`, area: 'animals', level: 'read' },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/${await animal(org, 'Two')}/details`,
    body: { sex: 'female' },
    area: 'animals',
    level: 'write',
  },
]);

test('the public description: written on the details route, read back, shown on the public page before shareable notes', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, 'Rosie', { publicName: 'Rosie', isPublic: true });
  const url = `/api/animals/${id}/details`;
  assert.equal((await org.req('GET', url)).body.public_description, null);
  const text = 'A gentle old girl who loves a sunny window.\n\nShe walks well on a lead.';
  const res = await org.req('PATCH', url, { body: { public_description: `  ${text}  ` } });
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.public_description, text);
  const listed = (await org.req('GET', '/api/animals?q=rosie')).body.results[0];
  assert.equal(listed.public_description, text);
  // Family A keeps exactly its fields: no description there.
  assert.equal('public_description' in (await org.req('GET', `/api/v1/animals/${id}`)).body, false);
  const bad = await org.req('PATCH', url, { body: { public_description: 'x'.repeat(5001) } });
  assertErrorShape(url, bad, 422);
  // The public page shows it, paragraph by paragraph.
  const page = await request(t, org.host, 'GET', `/animals/${id}/rosie`, { key: null });
  assert.equal(page.status, 200, page.raw);
  assert.match(page.raw, /A gentle old girl who loves a sunny window\./);
  assert.match(page.raw, /She walks well on a lead\./);
  const cleared = await org.req('PATCH', url, { body: { public_description: '' } });
  assert.equal(cleared.body.public_description, null);
  const audit = await org.req('GET', `/api/activity?entity_type=animal&entity_id=${id}`);
  assert.equal(audit.status, 200, audit.raw);
  assert.ok(JSON.stringify(audit.body).includes('public_description'), 'the activity names the field');
});

/**
 * How far the name search's kept names are from the organization's live animals (0 when in step): each live name has
 * its suffixes, every kept suffix is one ark_search_entries makes for its name, and the counts per name and status
 * (summed over their stripes) are the live animals'.
 */
async function nameTermsOutOfStep(orgId: string): Promise<number> {
  const rows = await t.db.query<{ n: string }>(
    `WITH kept AS (SELECT DISTINCT name_search FROM animal_name_suffixes WHERE organization_id = $1)
     SELECT (SELECT count(*) FROM (
               (SELECT name_search, status_id, sum(n) AS n FROM animal_name_counts WHERE organization_id = $1
                 GROUP BY 1, 2 HAVING sum(n) <> 0
                EXCEPT SELECT name_search, status_id, count(*) FROM animals WHERE organization_id = $1 AND deleted_at IS NULL
                 GROUP BY 1, 2)
               UNION ALL
               (SELECT name_search, status_id, count(*) FROM animals WHERE organization_id = $1 AND deleted_at IS NULL GROUP BY 1, 2
                EXCEPT SELECT name_search, status_id, sum(n) FROM animal_name_counts WHERE organization_id = $1 GROUP BY 1, 2)) d)
          + (SELECT count(*) FROM animals a WHERE a.organization_id = $1 AND a.deleted_at IS NULL
                AND a.name_search NOT IN (SELECT name_search FROM kept))
          + (SELECT count(*) FROM (
               (SELECT term, name_search, rep FROM animal_name_suffixes WHERE organization_id = $1
                EXCEPT SELECT x.term, k.name_search, x.rep FROM kept k, ark_search_entries(k.name_search, 1) x)
               UNION ALL
               (SELECT x.term, k.name_search, x.rep FROM kept k, ark_search_entries(k.name_search, 1) x
                EXCEPT SELECT term, name_search, rep FROM animal_name_suffixes WHERE organization_id = $1)) e) AS n`,
    [orgId],
  );
  return Number(rows[0]?.n);
}

/** The staff list's ids and total for a query string (GET /api/animals). */
async function search(org: TestOrg, query: string): Promise<{ ids: string[]; total: number }> {
  const res = await org.req('GET', `/api/animals?${query}`);
  assert.equal(res.status, 200, res.raw);
  return { ids: res.body.results.map((r: { id: string }) => r.id), total: res.body.total };
}

test('the name search reads the kept suffixes: exact totals, newest first, in step on rename, status change and delete', async () => {
  const org = await makeOrg(t);
  const q = (query: string) => search(org, query);
  const luna = await animal(org, 'Luna 42');
  const lunar = await animal(org, 'Lunar', { species: 'cat' });
  const ollie = await animal(org, 'Ollie', { publicName: 'Blue Moon' });
  assert.equal(await nameTermsOutOfStep(org.id), 0);
  assert.deepEqual(await q('q=lun'), { ids: [lunar, luna], total: 2 });
  assert.deepEqual(await q('q=una%2042'), { ids: [luna], total: 1 });
  assert.deepEqual(await q('q=42'), { ids: [luna], total: 1 });
  assert.deepEqual(await q('q=lun&species=cat'), { ids: [lunar], total: 1 });
  assert.deepEqual(await q('q=oon'), { ids: [ollie], total: 1 });
  assert.deepEqual(await q('q=lun&limit=1&offset=1'), { ids: [luna], total: 2 });
  assert.deepEqual(await q('q=lun&limit=1&offset=5'), { ids: [], total: 2 });
  assert.deepEqual(await q('q=lunaollie'), { ids: [], total: 0 });

  // A status change moves the animal between care states; a rename between searches.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${lunar}`, { body: { status: 'Adopted' } })).status, 200);
  assert.deepEqual(await q('q=lun&care_state=in_care'), { ids: [luna], total: 1 });
  assert.deepEqual(await q('q=lun&status=Adopted'), { ids: [lunar], total: 1 });
  assert.equal((await org.req('PATCH', `/api/v1/animals/${luna}`, { body: { name: 'Pepper', publicName: 'Pepper' } })).status, 200);
  assert.deepEqual(await q('q=lun'), { ids: [lunar], total: 1 });
  assert.deepEqual(await q('q=pepp'), { ids: [luna], total: 1 });
  assert.equal(await nameTermsOutOfStep(org.id), 0);
  assert.equal((await org.req('DELETE', `/api/v1/animals/${lunar}`)).status, 204);
  assert.deepEqual(await q('q=lun'), { ids: [], total: 0 });
  assert.equal(await nameTermsOutOfStep(org.id), 0);

  // A word that starts several suffixes of one animal's names ("lu" starts "lulu", "lu" and "lumi") finds it once:
  // each animal is counted once without a DISTINCT (the kept `rep` of its suffixes), alone or with a second word.
  const lulu = await animal(org, 'Lulu Lu', { publicName: 'Lumi lulu' });
  assert.equal(await nameTermsOutOfStep(org.id), 0);
  for (const word of ['lul', 'ul', 'lulu', 'lum']) assert.deepEqual(await q(`q=${word}`), { ids: [lulu], total: 1 }, word);
  // Ollie's names ("ollie", "blue moon") also start several suffixes with "l", "lu", "u" and "o".
  for (const word of ['l', 'lu', 'u']) assert.deepEqual(await q(`q=${word}`), { ids: [lulu, ollie], total: 2 }, word);
  assert.deepEqual(await q('q=o'), { ids: [ollie], total: 1 });
  assert.deepEqual(await q('q=lu%20mi'), { ids: [lulu], total: 1 });
  assert.deepEqual(await q('q=i%20lu'), { ids: [lulu, ollie], total: 2 });
  assert.deepEqual(await q('q=e'), { ids: [ollie, luna], total: 2 });
});

test('the name search pages the same whether it walks the animals newest first or reads each name', async () => {
  const org = await makeOrg(t);
  const q = (query: string) => search(org, query);
  // Ten animals, eight of them Biscuits under three names, some adopted; `made` newest first.
  const made: { id: string; name: string; adopted: boolean }[] = [];
  for (const [i, name] of [
    'Biscuit',
    'Biscuit',
    'Pepper',
    'Biscuit 4',
    'Biscuit',
    'Mr Biscuit',
    'Biscuit',
    'Rex',
    'Biscuit 4',
    'Biscuit',
  ].entries()) {
    const id = await animal(org, name);
    const adopted = i % 3 === 0;
    if (adopted) assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { status: 'Adopted' } })).status, 200);
    made.unshift({ id, name, adopted });
  }
  const biscuits = made.filter((a) => a.name.includes('Biscuit')).map((a) => a.id);
  assert.equal(biscuits.length, 8);
  assert.equal(await nameTermsOutOfStep(org.id), 0);
  // With one animal a page, the first pages walk the animals (5 × 1 × 10 animals < 8 matches × (the names and statuses'
  // rows + 10 × each)), deeper ones read each name's animals: every page is the next Biscuit, newest first.
  for (let offset = 0; offset < 9; offset++)
    assert.deepEqual(
      await q(`q=biscuit&limit=1&offset=${offset}`),
      { ids: biscuits.slice(offset, offset + 1), total: 8 },
      `offset ${offset}`,
    );
  assert.deepEqual(await q('q=biscuit&limit=3&offset=2'), { ids: biscuits.slice(2, 5), total: 8 });
  assert.deepEqual(await q('q=BISC%20uit'), { ids: biscuits, total: 8 });
  const fours = made.filter((a) => a.name === 'Biscuit 4').map((a) => a.id);
  assert.deepEqual(await q('q=biscuit%204'), { ids: fours, total: 2 });
  assert.deepEqual(await q('q=r%20bisc'), { ids: made.filter((a) => a.name === 'Mr Biscuit').map((a) => a.id), total: 1 });
  // A status filter, on both ways.
  const adopted = made.filter((a) => a.adopted && a.name.includes('Biscuit')).map((a) => a.id);
  assert.equal(adopted.length, 4);
  for (let offset = 0; offset < 5; offset++)
    assert.deepEqual(await q(`q=biscuit&status=Adopted&limit=1&offset=${offset}`), { ids: adopted.slice(offset, offset + 1), total: 4 });
  assert.deepEqual(await q('q=biscuit&care_state=in_care'), { ids: biscuits.filter((id) => !adopted.includes(id)), total: 4 });
  // A filter on the rows (species): counted over the matching animals.
  const cat = await animal(org, 'Biscuit', { species: 'cat' });
  assert.deepEqual(await q('q=biscuit&species=cat'), { ids: [cat], total: 1 });
  assert.deepEqual(await q('q=biscuit&species=cat&offset=3'), { ids: [], total: 1 });
  assert.deepEqual(await q('q=biscuit&offset=30'), { ids: [], total: 9 });
  // Renamed away and deleted: the name stays known with no animals, and finds none.
  for (const id of [...biscuits, cat]) assert.equal((await org.req('DELETE', `/api/v1/animals/${id}`)).status, 204);
  assert.deepEqual(await q('q=biscuit'), { ids: [], total: 0 });
  assert.equal(await nameTermsOutOfStep(org.id), 0);
});
