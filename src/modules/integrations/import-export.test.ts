import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { toIsoDate } from './import.service.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const PEOPLE_CSV = [
  'First Name,Last Name,Email,Phone,Address,City,Postcode,Country,Tags',
  'Ann,Lee,ann@example.org,+44 20 7183 8750,1 High St,London,N1 1AA,GB,donor;friend',
  'Bob,Stone,,,,,,,',
  'Cy,Moss,cy@example.org,not a phone,,,,,',
  'Dee,Park,DEE@example.org,,,,,,',
].join('\n');

async function imp(org: TestOrg, target: string, body: Record<string, unknown>, key?: string) {
  return org.req('POST', `/api/imports/${target}`, { body, ...(key ? { key } : {}) });
}

test('people from CSV: the dry run lists refused rows by line and duplicates, writes nothing; the real run applies choices', async () => {
  const org = await makeOrg(t);
  const dee = await org.req('POST', '/api/v1/people', { body: { firstName: 'Dee', lastName: 'Park', email: 'dee@example.org' } });
  assert.equal(dee.status, 201);
  const dry = await imp(org, 'people', { format: 'csv', content: PEOPLE_CSV, preset: 'spreadsheet', dry_run: true });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.dry_run, true);
  assert.equal(dry.body.total_rows, 4);
  assert.equal(dry.body.created, 1);
  assert.equal(dry.body.skipped, 1);
  assert.deepEqual(
    dry.body.errors.map((e: { line: number }) => e.line),
    [3, 4],
  );
  assert.match(dry.body.errors[0].message, /^Line 3: .*email/);
  assert.match(dry.body.errors[1].message, /^Line 4: .*phone/);
  assert.deepEqual(dry.body.duplicates, [{ line: 5, match_id: dee.body.id, matched_on: ['email'], choice: 'skip' }]);
  // Nothing was written.
  const none = await org.req('GET', '/api/v1/people?perPage=100');
  assert.equal(none.body.data.length, 1);
  const real = await imp(org, 'people', {
    format: 'csv',
    content: PEOPLE_CSV,
    preset: 'spreadsheet',
    choices: { 5: 'update' },
    defaults: { country: 'GB' },
  });
  assert.equal(real.status, 200, JSON.stringify(real.body));
  assert.equal(real.body.created, 1);
  assert.equal(real.body.updated, 1);
  assert.equal(real.body.skipped, 0);
  const list = await org.req('GET', '/api/v1/people?perPage=100');
  assert.equal(list.body.data.length, 2);
  const annId = list.body.data.find((p: { firstName: string }) => p.firstName === 'Ann').id;
  const ann = (await org.req('GET', `/api/v1/people/${annId}`)).body;
  assert.equal(ann.phone, '+442071838750');
  assert.deepEqual(ann.tags, ['donor', 'friend']);
  assert.equal(ann.address.postalCode, 'N1 1AA');
  // The import recorded its changes like any other write.
  const feed = await org.req('GET', '/api/changes?area=people');
  assert.deepEqual(
    feed.body.results.map((c: { event: string }) => c.event),
    ['person.created', 'person.updated', 'person.created'],
  );
});

test('animals from XLSX with the ASM preset: microchip duplicates, dates, defaults, saved mappings', async () => {
  const org = await makeOrg(t);
  const chip = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Old', species: 'Dog', status: 'Available', intakeDate: '2026-01-01', microchipNumber: '985112345678901' },
  });
  assert.equal(chip.status, 201);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Animals');
  ws.addRow(['ANIMALNAME', 'SPECIESNAME', 'SEXNAME', 'DATEBROUGHTIN', 'IDENTICHIPNUMBER', 'EXTRA']);
  ws.addRow(['Rex', 'Dog', 'Male', new Date(Date.UTC(2026, 2, 4)), '', 'x']);
  ws.addRow(['Old again', 'Dog', 'Female', '04/03/2026', '985112345678901', '']);
  ws.addRow(['', 'Cat', 'Female', '2026-03-04', '', '']);
  ws.addRow(['Tabby', 'Cat', 'F', '31/02/2026x', '', '']);
  const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
  const res = await imp(org, 'animals', { format: 'xlsx', content, preset: 'asm', defaults: { status: 'Available' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.created, 1);
  assert.equal(res.body.skipped, 1);
  assert.deepEqual(res.body.unmapped_columns, ['EXTRA']);
  assert.deepEqual(res.body.duplicates, [{ line: 3, match_id: chip.body.id, matched_on: ['microchip_number'], choice: 'skip' }]);
  assert.deepEqual(
    res.body.errors.map((e: { line: number }) => e.line),
    [4, 5],
  );
  const rex = (await org.req('GET', '/api/v1/animals?perPage=100')).body.data.find((a: { name: string }) => a.name === 'Rex');
  assert.equal(rex.intakeDate, '2026-03-04');
  assert.equal(rex.sex, 'male');
  // A saved mapping, used by id.
  const saved = await org.req('POST', '/api/imports/animals/mappings', {
    body: { name: 'Our sheet', columns: { Pet: 'name', Kind: 'species', In: 'intake_date' } },
  });
  assert.equal(saved.status, 201);
  const again = await org.req('POST', '/api/imports/animals/mappings', {
    body: { name: 'Our sheet', columns: { Pet: 'name', Kind: 'species', Arrived: 'intake_date' } },
  });
  assert.equal(again.body.id, saved.body.id);
  const used = await imp(org, 'animals', {
    format: 'csv',
    content: 'Pet,Kind,Arrived\nMilo,Cat,2026-05-01\n',
    mapping_id: saved.body.id,
    defaults: { status: 'Available' },
  });
  assert.equal(used.body.created, 1);
  const maps = await org.req('GET', '/api/imports/animals/mappings');
  assert.equal(maps.body.results.length, 1);
  assert.equal((await org.req('DELETE', `/api/imports/animals/mappings/${saved.body.id}`)).status, 204);
  const presets = await org.req('GET', '/api/imports/people/mappings');
  assert.deepEqual(
    presets.body.presets.map((p: { name: string }) => p.name),
    ['spreadsheet', 'asm'],
  );
});

test('import rules: a mapping is required, fields are checked, write on the area is needed, bad files are 422', async () => {
  const org = await makeOrg(t);
  assertErrorShape('/api/imports/people', await imp(org, 'people', { format: 'csv', content: 'a\n1' }), 400);
  assertErrorShape('/api/imports/people', await imp(org, 'people', { format: 'csv', content: 'a\n1', columns: { a: 'password' } }), 422);
  assertErrorShape('/api/imports/people', await imp(org, 'people', { format: 'csv', content: 'a\n1', preset: 'nope' }), 422);
  assertErrorShape('/api/imports/people', await imp(org, 'people', { format: 'xlsx', content: 'bm90IGEgemlw', preset: 'asm' }), 422);
  assertErrorShape('/api/imports/people', await imp(org, 'people', { format: 'csv', content: '"a,b\n1', preset: 'asm' }), 422);
  assertErrorShape(
    '/api/imports/people',
    await imp(org, 'people', { format: 'csv', content: PEOPLE_CSV, preset: 'spreadsheet' }, org.keys.readOnly),
    403,
  );
  const animalsOnly = await org.keyWith({ animals: 'write' });
  assertErrorShape(
    '/api/imports/people',
    await imp(org, 'people', { format: 'csv', content: PEOPLE_CSV, preset: 'spreadsheet' }, animalsOnly),
    403,
  );
  assert.equal(toIsoDate('01/02/2026', 'dmy'), '2026-02-01');
  assert.equal(toIsoDate('01/02/2026', 'mdy'), '2026-01-02');
  assert.equal(toIsoDate('13/13/2026', 'dmy'), null);
});

test('export: CSV and XLSX with filters, every row, streamed', async () => {
  const org = await makeOrg(t);
  for (const [name, species] of [
    ['A', 'Dog'],
    ['B', 'Cat'],
    ['C', 'Dog'],
  ])
    await org.req('POST', '/api/v1/animals', { body: { name, species, status: 'Available', intakeDate: '2026-01-01' } });
  const csv = await org.req('GET', '/api/exports/animals?format=csv&species=dog');
  assert.equal(csv.status, 200);
  assert.match(String(csv.headers['content-type']), /text\/csv/);
  assert.match(String(csv.headers['content-disposition']), /attachment; filename="animals-/);
  const rows = parse<{ name: string; species: string }>(csv.raw, { columns: true });
  assert.deepEqual(rows.map((r) => r.name).sort(), ['A', 'C']);
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/exports/animals?format=xlsx',
    headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` },
  });
  assert.equal(res.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  assert.equal(at(wb.worksheets, 0).rowCount, 4);
  const people = await org.req('GET', '/api/exports/people');
  assert.equal(people.status, 200);
  const gifts = await org.req('GET', '/api/exports/donations?from=2026-01-01');
  assert.equal(gifts.status, 200);
  assertErrorShape('/api/exports/donations', await org.req('GET', '/api/exports/donations?from=yesterday'), 422);
  assertErrorShape(
    '/api/exports/people',
    await org.req('GET', '/api/exports/people', { key: await org.keyWith({ animals: 'read' }) }),
    403,
  );
});

test('export: medical records (a recall by lot) and stays, of live animals only, with their filters', async () => {
  const org = await makeOrg(t);
  const made = async (name: string) => {
    const r = await org.req('POST', '/api/v1/animals', { body: { name, species: 'dog', status: 'Available', intakeDate: '2026-01-01' } });
    assert.equal(r.status, 201, r.raw);
    return r.body.id as string;
  };
  const a = await made('Rex');
  const b = await made('Gone');
  for (const [id, lot] of [
    [a, 'LOT-A1'],
    [a, 'LOT-B2'],
    [b, 'LOT-A1'],
  ] as const) {
    const r = await org.req('POST', `/api/animals/${id}/medical`, {
      body: { kind: 'vaccine', name: 'Rabies', lot, given_at: '2026-02-03T15:00:00Z' },
    });
    assert.equal(r.status, 201, r.raw);
  }
  assert.equal((await org.req('DELETE', `/api/v1/animals/${b}`)).status, 204);
  const recall = await org.req('GET', '/api/exports/medical?lot=LOT-A1');
  assert.equal(recall.status, 200, recall.raw);
  const rows = parse<{ animal_name: string; lot: string; kind: string }>(recall.raw, { columns: true });
  assert.deepEqual(
    rows.map((r) => [r.animal_name, r.lot, r.kind]),
    [['Rex', 'LOT-A1', 'vaccine']],
    'the deleted animal is left out',
  );
  assert.equal(parse((await org.req('GET', '/api/exports/medical?from=2026-02-04')).raw, { columns: true }).length, 0);
  assert.equal(parse((await org.req('GET', '/api/exports/medical?to=2026-02-03')).raw, { columns: true }).length, 2);
  const stays = await org.req('GET', `/api/exports/stays?animal_id=${a}`);
  assert.equal(stays.status, 200, stays.raw);
  const s = parse<{ animal_id: string; outcome_at: string }>(stays.raw, { columns: true });
  assert.deepEqual(
    s.map((r) => [r.animal_id, r.outcome_at]),
    [[a, '']],
    'one open stay',
  );
  assert.equal(parse((await org.req('GET', '/api/exports/stays?open=false')).raw, { columns: true }).length, 0);
  assertErrorShape('/api/exports/medical', await org.req('GET', '/api/exports/medical?kind=magic'), 422);
  assertErrorShape('/api/exports/stays', await org.req('GET', '/api/exports/stays', { key: await org.keyWith({ people: 'read' }) }), 403);
});

const mapping = async (o: TestOrg, target: string) =>
  (
    await o.req('POST', `/api/imports/${target}/mappings`, {
      body: { name: `m${Math.random()}`, columns: { A: target === 'animals' ? 'name' : 'email' } },
    })
  ).body.id as string;
const animalSeed = async (o: TestOrg) =>
  (await o.req('POST', '/api/v1/animals', { body: { name: 'S', species: 'Dog', status: 'Available', intakeDate: '2026-01-01' } })).body
    .id as string;

/** An animal with a medical record: its id is in the medical export's animal_id column. */
const medicalSeed = async (o: TestOrg) => {
  const id = await animalSeed(o);
  await o.req('POST', `/api/animals/${id}/medical`, { body: { kind: 'vaccine', name: 'DHPP', given_at: '2026-01-02T10:00:00Z' } });
  return id;
};

const personSeed = async (o: TestOrg) =>
  (await o.req('POST', '/api/v1/people', { body: { firstName: 'S', lastName: 'Eed', email: `s${Math.random()}@example.org` } })).body
    .id as string;
const donationSeed = async (o: TestOrg) => {
  const donor = await personSeed(o);
  const res = await o.req('POST', '/api/v1/donations', {
    body: { donorId: donor, amount: 10, type: 'one-off', date: '2026-01-01', paymentMethod: 'cash' },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
};

securitySuite('import and export', () => t, [
  {
    method: 'POST',
    path: () => '/api/imports/animals',
    body: { format: 'csv', content: 'Name\nX', preset: 'spreadsheet', dry_run: true },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: () => '/api/imports/people',
    body: { format: 'csv', content: 'Email\nx', preset: 'spreadsheet', dry_run: true },
    area: 'people',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/imports/animals/mappings', area: 'animals', level: 'read', seed: (o) => mapping(o, 'animals') },
  { method: 'GET', path: () => '/api/imports/people/mappings', area: 'people', level: 'read', seed: (o) => mapping(o, 'people') },
  {
    method: 'POST',
    path: () => '/api/imports/animals/mappings',
    body: { name: 'x', columns: { A: 'name' } },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: () => '/api/imports/people/mappings',
    body: { name: 'x', columns: { A: 'email' } },
    area: 'people',
    level: 'write',
  },
  { method: 'DELETE', path: async (o) => `/api/imports/animals/mappings/${await mapping(o, 'animals')}`, area: 'animals', level: 'write' },
  { method: 'DELETE', path: async (o) => `/api/imports/people/mappings/${await mapping(o, 'people')}`, area: 'people', level: 'write' },
  { method: 'GET', path: () => '/api/exports/animals', area: 'animals', level: 'read', seed: animalSeed },
  { method: 'GET', path: () => '/api/exports/people', area: 'people', level: 'read', seed: personSeed },
  { method: 'GET', path: () => '/api/exports/donations', area: 'fundraising', level: 'read', seed: donationSeed },
  { method: 'GET', path: () => '/api/exports/medical', area: 'animals', level: 'read', seed: medicalSeed },
  { method: 'GET', path: () => '/api/exports/stays', area: 'animals', level: 'read', seed: animalSeed },
]);
