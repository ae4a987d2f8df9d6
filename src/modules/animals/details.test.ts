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

/** Rows of the name suffix table that differ from the organization's live animals' (none when in step). */
async function nameTermsOutOfStep(orgId: string): Promise<number> {
  const rows = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM (
       (SELECT term, animal_id, created_at, status_id, rep FROM animal_name_terms WHERE organization_id = $1
        EXCEPT SELECT x.term, a.id, a.created_at, a.status_id, x.rep FROM animals a, ark_search_entries(a.name_search, 1) x
                WHERE a.organization_id = $1 AND a.deleted_at IS NULL)
       UNION ALL
       (SELECT x.term, a.id, a.created_at, a.status_id, x.rep FROM animals a, ark_search_entries(a.name_search, 1) x
         WHERE a.organization_id = $1 AND a.deleted_at IS NULL
        EXCEPT SELECT term, animal_id, created_at, status_id, rep FROM animal_name_terms WHERE organization_id = $1)) d`,
    [orgId],
  );
  return Number(rows[0]?.n);
}

test('the name search reads the kept suffixes: exact totals, newest first, in step on rename, status change and delete', async () => {
  const org = await makeOrg(t);
  const q = async (query: string) => {
    const res = await org.req('GET', `/api/animals?${query}`);
    assert.equal(res.status, 200, res.raw);
    return { ids: res.body.results.map((r: { id: string }) => r.id) as string[], total: res.body.total as number };
  };
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
