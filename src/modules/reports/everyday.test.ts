// The everyday reports over records made through each area's own endpoints.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { application, person } from '../adoptions/fixtures.test-helpers.ts';
import { foster, fresh, intake } from './fixtures.test-helpers.ts';

let t: TestApp;
let org: TestOrg;
before(async () => {
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9' });
  org = await makeOrg(t, { timeZone: 'America/Chicago' });
});
after(async () => t.close());

const ok = (r: { status: number; raw: string }, status = 201) => assert.equal(r.status, status, r.raw);
const today = () => new Date().toISOString().slice(0, 10);
const shift = (d: string, days: number) => new Date(Date.parse(d) + days * 86_400_000).toISOString().slice(0, 10);

test('medical due and overdue; vaccinations with lot numbers, streamed CSV and a recall filter', async () => {
  const rex = await fresh(org, 'Rex');
  await intake(org, rex, '2026-01-05T15:00:00Z', 'stray');
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'DHPP' } });
  ok(item);
  ok(await org.req('POST', `/api/animals/${rex}/medical/due`, { body: { item_id: item.body.id, due_on: '2026-03-01' } }));
  ok(await org.req('POST', `/api/animals/${rex}/medical/due`, { body: { item_id: item.body.id, due_on: '2026-03-12' } }));
  ok(await org.req('POST', `/api/animals/${rex}/medical/due`, { body: { item_id: item.body.id, due_on: '2026-05-01' } }));
  const due = await org.req('GET', '/api/reports/medical-due?date=2026-03-10&days=7');
  ok(due, 200);
  assert.deepEqual(
    due.body.results.map((r: any) => [r.due_on, r.overdue, r.location, r.species, r.kind, r.count]),
    [
      ['2026-03-01', true, 'No location', 'dog', 'vaccine', 1],
      ['2026-03-12', false, 'No location', 'dog', 'vaccine', 1],
    ],
  );
  assert.deepEqual([due.body.overdue, due.body.due], [1, 1]);

  for (const [lot, at] of [
    ['L-100', '2026-02-01T16:00:00Z'],
    ['L-200', '2026-02-02T16:00:00Z'],
    ['L-100', '2026-02-03T05:30:00Z'], // 23:30 on 2 February in Chicago
  ])
    ok(await org.req('POST', `/api/animals/${rex}/medical`, { body: { kind: 'vaccine', name: 'Rabies', lot, given_at: at } }));
  const v = await org.req('GET', '/api/reports/vaccinations?from=2026-02-01&to=2026-02-02');
  ok(v, 200);
  assert.deepEqual(
    v.body.results.map((r: any) => [r.given_on, r.lot, r.animal_name]),
    [
      ['2026-02-01', 'L-100', 'Rex'],
      ['2026-02-02', 'L-200', 'Rex'],
      ['2026-02-02', 'L-100', 'Rex'],
    ],
  );
  const recall = await org.req('GET', '/api/reports/vaccinations?from=2026-01-01&to=2026-12-31&lot=l-100&format=csv');
  ok(recall, 200);
  const lines = recall.raw.trim().split('\n');
  assert.equal(lines[0], 'Given on,Animal id,Animal,Species,Vaccine,Product,Manufacturer,Lot,Lot expires,Given by,Record id');
  assert.equal(lines.length, 3);
  assert.ok(lines.slice(1).every((l) => l.includes(',L-100,')));
  const page = await org.req('GET', '/api/reports/vaccinations?from=2026-01-01&to=2026-12-31&limit=2&offset=1');
  assert.deepEqual([page.body.results.length, page.body.has_more], [2, false]);
});

test('report files: text a spreadsheet would run as a formula gets a quote in front, in CSV and XLSX', async () => {
  const o = await makeOrg(t);
  const rex = await fresh(o, '=HYPERLINK("http://evil.test","Rex")');
  await intake(o, rex, '2026-01-05T15:00:00Z', 'stray');
  ok(
    await o.req('POST', `/api/animals/${rex}/medical`, {
      body: { kind: 'vaccine', name: '@SUM(A1)', lot: '-L9', given_at: '2026-02-01T16:00:00Z' },
    }),
  );
  const csv = await o.req('GET', '/api/reports/vaccinations?from=2026-01-01&to=2026-12-31&format=csv');
  ok(csv, 200);
  const line = csv.raw.trim().split('\n')[1] ?? '';
  assert.ok(line.includes(`"'=HYPERLINK(""http://evil.test"",""Rex"")"`), line);
  assert.ok(line.includes(",'@SUM(A1),") && line.includes(",'-L9,"), line);
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/reports/vaccinations?from=2026-01-01&to=2026-12-31&format=xlsx',
    headers: { host: o.host, authorization: `Bearer ${o.keys.admin}` },
  });
  assert.equal(res.statusCode, 200);
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.worksheets[0]?.getRow(2).eachCell((c) => cells.push(typeof c.value === 'string' ? c.value : JSON.stringify(c.value)));
  assert.ok(
    cells.includes(`'=HYPERLINK("http://evil.test","Rex")`) && cells.includes("'@SUM(A1)") && cells.includes("'-L9"),
    cells.join(' | '),
  );
});

test('foster homes with capacity and current animals; adoptions with fees', async () => {
  const pip = await fresh(org, 'Pip');
  await intake(org, pip, '2026-01-05T15:00:00Z', 'stray');
  await foster(org, pip, '2026-02-01');
  const homes = await org.req('GET', '/api/reports/foster-homes?date=2026-02-10');
  ok(homes, 200);
  const home = homes.body.results.find((h: any) => h.animals.includes('Pip'));
  assert.deepEqual([home.capacity, home.current, home.free, home.status], [3, 1, 2, 'active']);
  const before = await org.req('GET', '/api/reports/foster-homes?date=2026-01-10');
  assert.equal(before.body.results.find((h: any) => h.id === home.id).current, 0);

  const pet = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Olive', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'female' },
  });
  ok(pet);
  const app = await application(org, await person(org), [pet.body.id]);
  ok(await org.req('POST', `/api/animals/adoption-applications/${app}/finalize`, { body: {} }));
  const r = await org.req('GET', `/api/reports/adoptions?from=${shift(today(), -2)}&to=${shift(today(), 2)}`);
  ok(r, 200);
  assert.deepEqual(
    r.body.results.map((x: any) => [x.animal_name, x.status, typeof x.fee_minor, x.currency]),
    [['Olive', 'adopted', 'number', org.currency]],
  );
  assert.equal(r.body.totals[0].adoptions, 1);
  const pdf = await org.req('GET', `/api/reports/adoptions?from=${shift(today(), -2)}&to=${shift(today(), 2)}&format=pdf`);
  assert.ok(pdf.raw.startsWith('%PDF'));
});

test('donations per currency in minor units; 403 naming Fundraising without read on it', async () => {
  const donor = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Dee', lastName: 'Onor', email: `dee.${Date.now()}@example.com`, roles: ['donor'] },
  });
  ok(donor);
  const camp = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Spring appeal', currency: org.currency } });
  ok(camp);
  const gift = (amount: number, date: string, more: Record<string, unknown> = {}) =>
    org.req('POST', '/api/v1/donations', {
      body: { donorId: donor.body.id, amount, type: 'one-off', date, paymentMethod: 'card', ...more },
    });
  ok(await gift(0.1, '2026-04-02', { campaignId: camp.body.id }));
  ok(await gift(0.2, '2026-04-20', { campaignId: camp.body.id }));
  ok(await gift(5000, '2026-04-03', { currency: 'JPY' }));
  ok(await gift(7, '2026-05-03'));
  const r = await org.req('GET', '/api/reports/donations?from=2026-04-01&to=2026-04-30');
  ok(r, 200);
  assert.deepEqual(
    r.body.results.map((x: any) => [x.month, x.campaign, x.currency, x.count, x.amount_minor]),
    [
      ['2026-04', null, 'JPY', 1, 5000],
      ['2026-04', 'Spring appeal', org.currency, 2, 30],
    ],
  );
  assert.deepEqual(
    r.body.totals.sort((a: any, b: any) => a.currency.localeCompare(b.currency)),
    [
      { currency: 'JPY', count: 1, amount_minor: 5000 },
      { currency: org.currency, count: 2, amount_minor: 30 },
    ].sort((a, b) => a.currency.localeCompare(b.currency)),
  );
  const noFundraising = await org.keyWith({ reports: 'read', animals: 'read' });
  const denied = await org.req('GET', '/api/reports/donations?from=2026-04-01&to=2026-04-30', { key: noFundraising });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error, /Fundraising/);
  const noReports = await org.keyWith({ fundraising: 'read' });
  const denied2 = await org.req('GET', '/api/reports/donations?from=2026-04-01&to=2026-04-30', { key: noReports });
  assert.equal(denied2.status, 403);
  assert.match(denied2.body.error, /Reports/);
});

test('volunteer hours by volunteer and role; message delivery by category', async () => {
  const vol = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Val', lastName: 'Unteer', email: `val.${Date.now()}@example.org`, roles: ['volunteer'] },
  });
  ok(vol);
  const role = await org.req('POST', '/api/shifts/roles', { body: { name: 'Dog walker' } });
  ok(role);
  const s = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Care day', starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-30T00:00:00Z' },
  });
  ok(s);
  for (const [from, to, roleId] of [
    ['2099-06-01T14:00:00Z', '2099-06-01T17:00:00Z', role.body.id],
    ['2099-06-02T14:00:00Z', '2099-06-02T15:30:00Z', role.body.id],
    ['2099-06-03T14:00:00Z', '2099-06-03T16:00:00Z', undefined],
  ]) {
    const w = await org.req('POST', `/api/shifts/schedules/${s.body.id}/windows`, {
      body: { starts_at: from, ends_at: to, capacity: 2, ...(roleId ? { role_id: roleId } : {}) },
    });
    ok(w);
    ok(await org.req('POST', `/api/shifts/windows/${w.body.id}/bookings`, { body: { person_id: vol.body.id } }));
  }
  const h = await org.req('GET', '/api/reports/volunteer-hours?from=2099-06-01&to=2099-06-30');
  ok(h, 200);
  assert.deepEqual(
    h.body.results.map((x: any) => [x.volunteer, x.role, x.shifts, x.hours]),
    [
      ['Val Unteer', null, 1, 2],
      ['Val Unteer', 'Dog walker', 2, 4.5],
    ],
  );
  assert.equal(h.body.total_hours, 6.5);

  const send = await org.req('POST', '/api/communications/messages', {
    body: {
      idempotency_key: 'rep-1',
      to_addresses: ['someone@example.org'],
      subject: 'Hello',
      body_blocks: [{ type: 'p', runs: [{ text: 'Hi' }] }],
      category: 'transactional',
    },
  });
  assert.ok(send.status < 300, send.raw);
  const d = await org.req('GET', `/api/reports/message-delivery?from=${shift(today(), -2)}&to=${shift(today(), 2)}`);
  ok(d, 200);
  assert.deepEqual(d.body.results, [{ category: 'transactional', total: 1, sent: 0, bounced: 0, suppressed: 0, failed: 0, pending: 1 }]);
  const xlsx = await org.req('GET', `/api/reports/message-delivery?from=${shift(today(), -2)}&to=${shift(today(), 2)}`, {
    headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  });
  assert.ok(xlsx.raw.startsWith('PK'));
});

test('the report catalogue lists every report with its parameters and areas; each area it names is needed to run it', async () => {
  const r = await org.req('GET', '/api/reports');
  assert.equal(r.status, 200, r.raw);
  const list = r.body.results as { key: string; path: string; title: string; parameters: any[]; areas: string[] }[];
  // Every report route the API documents is in the catalogue (the SAC submissions and schedules are not reports).
  const doc = (await org.req('GET', '/api/openapi.json')).body;
  const reportPaths = Object.keys(doc.paths).filter(
    (p) => /^\/api\/reports\/[a-z-]+$/.test(p) && !['/api/reports/schedules'].includes(p) && doc.paths[p].get,
  );
  assert.deepEqual(list.map((x) => x.path).sort(), reportPaths.sort());
  const due = list.find((x) => x.key === 'medical-due');
  assert.deepEqual(
    due?.parameters.map((p) => [p.name, p.type, p.required]),
    [
      ['date', 'date', false],
      ['days', 'integer', false],
    ],
  );
  assert.equal(due?.parameters[1].default, 7);
  const sac = list.find((x) => x.key === 'sac');
  assert.deepEqual(sac?.parameters.map((p) => [p.name, p.type, p.required]).slice(0, 2), [
    ['month', 'month', true],
    ['species_group', 'enum', false],
  ]);
  assert.ok(sac?.parameters[1].values.includes('dogs'));
  assert.ok(!list.some((x) => x.parameters.some((p) => ['format', 'limit', 'offset'].includes(p.name))));
  assert.deepEqual(list.find((x) => x.key === 'donations')?.areas, ['fundraising']);
  // The areas are the route's own: with read on Reports and every area but the named one, 403.
  for (const x of list) {
    for (const area of x.areas) {
      const key = await org.keyWith({
        reports: 'read',
        animals: 'read',
        fundraising: 'read',
        shifts: 'read',
        communications: 'read',
        [area]: undefined,
      } as never);
      const q = Object.fromEntries(
        x.parameters.filter((p) => p.required).map((p) => [p.name, p.type === 'month' ? '2026-03' : '2026-03-01']),
      );
      const run = await org.req('GET', `${x.path}?${new URLSearchParams(q)}`, { key });
      assert.equal(run.status, 403, `${x.key} without ${area}: ${run.raw}`);
    }
  }
  // Read on Reports alone lists them; no key: 401.
  assert.equal((await org.req('GET', '/api/reports', { key: await org.keyWith({ reports: 'read' }) })).status, 200);
  assert.equal((await org.req('GET', '/api/reports', { key: await org.keyWith({ animals: 'read' }) })).status, 403);
  assert.equal((await org.req('GET', '/api/reports', { key: null })).status, 401);
});
