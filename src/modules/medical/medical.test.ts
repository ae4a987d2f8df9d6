import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animal } from '../operations/fixtures.test-helpers.ts';
import { addDays, dateIn, todayIn } from './dates.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function item(org: TestOrg, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/animals/medical/catalogue', {
    body: { kind: 'vaccine', name: `Vax ${Math.random().toString(36).slice(2, 8)}`, species: ['dog'], ...body },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; name: string };
}
async function protocol(org: TestOrg, itemId: string, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/animals/medical/protocols', {
    body: { name: `P ${Math.random().toString(36).slice(2, 8)}`, species: 'Dog', item_id: itemId, interval_days: 14, doses: 3, ...body },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string };
}
async function dueItem(org: TestOrg, animalId: string, due_on: string) {
  const it = await item(org, { species: [] });
  const res = await org.req('POST', `/api/animals/${animalId}/medical/due`, { body: { item_id: it.id, due_on } });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string };
}
const ZONE = 'America/New_York';
/** The animal's open due items (protocols make them when the animal enters care). */
async function dueOf(org: TestOrg, animalId: string): Promise<any[]> {
  const res = await org.req('GET', `/api/animals/${animalId}/medical`);
  assert.equal(res.status, 200, res.raw);
  return res.body.due;
}

test('catalogue: create, unique names, alters only on procedures, kind fixed, list filters, delete refused while used', async () => {
  const org = await makeOrg(t);
  const v = await item(org, { name: 'DHPP', species: ['Dog', 'dog'], default_product: 'Vanguard' });
  const listed = await org.req('GET', '/api/animals/medical/catalogue?species=DOG');
  assert.deepEqual(
    listed.body.results.map((r: any) => [r.name, r.species]),
    [['DHPP', ['dog']]],
  );
  assert.equal((await org.req('GET', '/api/animals/medical/catalogue?species=cat')).body.results.length, 0);
  assertErrorShape('/api/animals', await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'test', name: 'dhpp' } }), 422);
  assertErrorShape(
    '/api/animals',
    await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'X', alters: true } }),
    422,
  );
  assertErrorShape('/api/animals', await org.req('PATCH', `/api/animals/medical/catalogue/${v.id}`, { body: { kind: 'test' } }), 422);
  assertErrorShape('/api/animals', await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'x', name: 'Y' } }), 422);
  assertErrorShape('/api/animals', await org.req('POST', '/api/animals/medical/catalogue', { body: { name: 'Y' } }), 400);
  const patched = await org.req('PATCH', `/api/animals/medical/catalogue/${v.id}`, { body: { species: [] } });
  assert.deepEqual(patched.body.species, []);
  await protocol(org, v.id);
  assertErrorShape('/api/animals', await org.req('DELETE', `/api/animals/medical/catalogue/${v.id}`), 422);
  const unused = await item(org);
  assert.equal((await org.req('DELETE', `/api/animals/medical/catalogue/${unused.id}`)).status, 204);
  assert.equal((await org.req('GET', '/api/animals/medical/catalogue')).body.results.length, 1);
  const staff = await org.req('POST', '/api/animals/medical/catalogue', { key: org.keys.staff, body: { kind: 'test', name: 'Z' } });
  assertErrorShape('/api/animals', staff, 403);
});

test('protocols: doses or stop age required, interval unless one dose, item must fit the species, delete refused once used', async () => {
  const org = await makeOrg(t);
  const catOnly = await item(org, { species: ['cat'] });
  const dog = await item(org);
  const bad = async (body: Record<string, unknown>, field: string) => {
    const res = await org.req('POST', '/api/animals/medical/protocols', {
      body: { name: 'N', species: 'dog', item_id: dog.id, ...body },
    });
    assertErrorShape('/api/animals', res, 422);
    assert.match(res.body.error, new RegExp(field));
  };
  await bad({ interval_days: 14 }, 'doses');
  await bad({ doses: 2 }, 'interval_days');
  await bad({ item_id: catOnly.id, doses: 1 }, 'item_id');
  await bad({ doses: 1, start_age_weeks: 10, stop_age_weeks: 8 }, 'stop_age_weeks');
  const single = await protocol(org, dog.id, { interval_days: null, doses: 1 });
  const got = await org.req('GET', `/api/animals/medical/protocols/${single.id}`);
  assert.equal(got.body.species, 'dog');
  assert.equal(got.body.doses, 1);
  const a = await animal(org, { species: 'dog' });
  await org.req('POST', `/api/animals/${a}/medical/apply-protocols`);
  assertErrorShape('/api/animals', await org.req('DELETE', `/api/animals/medical/protocols/${single.id}`), 422);
  const off = await org.req('PATCH', `/api/animals/medical/protocols/${single.id}`, { body: { active: false } });
  assert.equal(off.body.active, false);
  const unused = await protocol(org, dog.id);
  assert.equal((await org.req('DELETE', `/api/animals/medical/protocols/${unused.id}`)).status, 204);
});

test('applying protocols: species match, start age from birth date, stop age skips adults, idempotent, inactive ignored', async () => {
  const org = await makeOrg(t);
  const v = await item(org, { species: [] });
  const puppy = await protocol(org, v.id, { start_age_weeks: 6, stop_age_weeks: 20, doses: null });
  await protocol(org, v.id, { species: 'cat' });
  await protocol(org, v.id, { active: false });
  // Entering care (the Family A create's first stay) applies the protocols in the same transaction.
  const young = await animal(org, { species: 'DOG', intakeDate: '2026-01-10', dateOfBirth: '2026-01-01' });
  const applied = await dueOf(org, young);
  assert.equal(applied.length, 1, 'only the active dog protocol');
  assert.equal(applied[0].protocol_id, puppy.id);
  assert.equal(applied[0].due_on, '2026-02-12', 'birth date + 6 weeks, later than intake');
  assert.equal(applied[0].dose_number, 1);
  const again = await org.req('POST', `/api/animals/${young}/medical/apply-protocols`);
  assert.equal(again.status, 200, again.raw);
  assert.equal(again.body.results.length, 0, 'a protocol applies once');
  const old = await animal(org, { species: 'dog', intakeDate: '2026-01-10', dateOfBirth: '2020-01-01' });
  assert.equal((await dueOf(org, old)).length, 0);
  assert.equal((await org.req('POST', `/api/animals/${old}/medical/apply-protocols`)).body.results.length, 0);
  const unknownAge = await animal(org, { species: 'dog', intakeDate: '2026-01-10' });
  const u = await dueOf(org, unknownAge);
  assert.equal(u[0]?.due_on, '2026-01-10', 'no birth date: due on entering care');
  assertErrorShape('/api/animals', await org.req('POST', `/api/animals/${unknownAge}/medical/apply-protocols?entered_on=soon`), 422);
});

test('completing a due item: record + next dose in one go, next date counted in the zone across a DST change, 409 twice', async () => {
  const org = await makeOrg(t, { timeZone: ZONE });
  const v = await item(org, { default_product: 'Vanguard', default_manufacturer: 'Zoetis' });
  const p = await protocol(org, v.id, { interval_days: 14, doses: 2 });
  const a = await animal(org, { species: 'dog', intakeDate: '2026-03-01' });
  const [first] = await dueOf(org, a);
  assert.ok(first);
  assert.equal(first.due_on, '2026-03-01');
  // 23:30 on 7 March in New York is already 8 March in UTC; clocks move forward on 8 March.
  const given = '2026-03-07T23:30:00-05:00';
  assert.equal(dateIn(given, ZONE), '2026-03-07');
  const done = await org.req('POST', `/api/animals/${a}/medical/due/${first.id}/complete`, { body: { given_at: given, lot: 'A1' } });
  assert.equal(done.status, 201, done.raw);
  assert.equal(done.body.record.product, 'Vanguard');
  assert.equal(done.body.record.kind, 'vaccine');
  assert.equal(done.body.record.due_item_id, first.id);
  assert.equal(done.body.completed.state, 'done');
  assert.equal(done.body.next.due_on, '2026-03-21', '14 days after the local day given, not the UTC day (22nd)');
  assert.equal(done.body.next.dose_number, 2);
  assert.equal(done.body.next.protocol_id, p.id);
  assert.equal(done.body.record.next_due_on, '2026-03-21');
  assertErrorShape('/api/animals', await org.req('POST', `/api/animals/${a}/medical/due/${first.id}/complete`, { body: {} }), 409);
  const last = await org.req('POST', `/api/animals/${a}/medical/due/${done.body.next.id}/complete`, {
    body: { given_at: '2026-03-21T10:00:00Z' },
  });
  assert.equal(last.body.next, null, 'two doses given: the series ends');
  const medical = await org.req('GET', `/api/animals/${a}/medical`);
  assert.equal(medical.body.due.length, 0);
  assert.equal(medical.body.results.length, 2);
  // Deleting the first record reopens its item and removes nothing completed.
  const del = await org.req('DELETE', `/api/animals/${a}/medical/${done.body.record.id}`);
  assert.equal(del.status, 204);
  const dues = (await org.req('GET', `/api/animals/${a}/medical/due`)).body.results;
  assert.deepEqual(
    dues.map((d: any) => [d.dose_number, d.state === 'done']),
    [
      [1, false],
      [2, true],
    ],
  );
});

test('completing concurrently: exactly one record', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const d = await dueItem(org, a, '2026-01-05');
  const res = await Promise.all(
    [1, 2, 3].map(() => org.req('POST', `/api/animals/${a}/medical/due/${d.id}/complete`, { body: { given_at: '2026-01-05T12:00:00Z' } })),
  );
  assert.deepEqual(res.map((r) => r.status).sort(), [201, 409, 409]);
  assert.equal((await org.req('GET', `/api/animals/${a}/medical`)).body.results.length, 1);
});

test('stop age ends a series: no dose at or after it', async () => {
  const org = await makeOrg(t);
  const v = await item(org);
  await protocol(org, v.id, { start_age_weeks: 6, interval_days: 28, doses: null, stop_age_weeks: 12 });
  const a = await animal(org, { species: 'dog', intakeDate: '2026-01-01', dateOfBirth: '2025-12-01' });
  const [d1] = await dueOf(org, a);
  assert.ok(d1);
  assert.equal(d1.due_on, '2026-01-12');
  const c1 = await org.req('POST', `/api/animals/${a}/medical/due/${d1.id}/complete`, { body: { given_at: '2026-01-12T15:00:00Z' } });
  assert.equal(c1.body.next.due_on, '2026-02-09', 'age 10 weeks');
  const c2 = await org.req('POST', `/api/animals/${a}/medical/due/${c1.body.next.id}/complete`, {
    body: { given_at: '2026-02-09T15:00:00Z' },
  });
  assert.equal(c2.body.next, null, 'the next would fall at 14 weeks, past the stop age');
});

test('records: rules on kind, result, rabies tag, species; next due makes, moves and removes a due item; 422 changes nothing', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { species: 'dog' });
  const rabies = await item(org, { name: 'Rabies', default_manufacturer: 'Merck' });
  const fiv = await item(org, { kind: 'test', name: 'FIV', species: ['cat'] });
  const hw = await item(org, { kind: 'test', name: 'Heartworm' });
  const url = `/api/animals/${a}/medical`;
  const given_at = '2026-02-01T10:00:00Z';
  const r = await org.req('POST', url, { body: { item_id: rabies.id, given_at, rabies_tag: 'T-123', lot: 'L9', route: 'subcutaneous' } });
  assert.equal(r.status, 201, r.raw);
  assert.equal(r.body.name, 'Rabies');
  assert.equal(r.body.manufacturer, 'Merck');
  assert.equal(r.body.result, null);
  const test1 = await org.req('POST', url, { body: { item_id: hw.id, given_at } });
  assert.equal(test1.body.result, 'unknown', 'a test without a result is unknown');
  const bad = [
    { item_id: hw.id, given_at, rabies_tag: 'X' },
    { item_id: rabies.id, given_at, result: 'positive' },
    { item_id: rabies.id, kind: 'test', given_at },
    { item_id: fiv.id, given_at },
    { given_at, name: 'Free text' },
    { kind: 'treatment', name: 'Free text', given_at, next_due_on: '2026-03-01' },
    { item_id: rabies.id, given_at, next_due_on: '2026-01-01' },
    { item_id: 'mci_nope', given_at },
    { item_id: rabies.id, given_at: 'yesterday' },
    { item_id: rabies.id, given_at, route: 'by mouth' },
  ];
  for (const body of bad) assertErrorShape(url, await org.req('POST', url, { body }), 422);
  assertErrorShape(url, await org.req('POST', url, { body: { item_id: rabies.id } }), 400);
  assert.equal((await org.req('GET', url)).body.results.length, 2, 'refused records left nothing');
  const free = await org.req('POST', url, { body: { kind: 'treatment', name: 'Ear cleaning', given_at, result: null } });
  assert.equal(free.status, 201, free.raw);
  // next due: made, moved, removed
  const withNext = await org.req('POST', url, { body: { item_id: rabies.id, given_at, next_due_on: '2027-02-01' } });
  let due = (await org.req('GET', url)).body.due;
  assert.deepEqual(
    due.map((d: any) => [d.due_on, d.item_id, d.state]),
    [['2027-02-01', rabies.id, 'upcoming']],
  );
  await org.req('PATCH', `${url}/${withNext.body.id}`, { body: { next_due_on: '2027-01-15' } });
  due = (await org.req('GET', url)).body.due;
  assert.equal(due[0].due_on, '2027-01-15');
  assertErrorShape(url, await org.req('PATCH', `${url}/${withNext.body.id}`, { body: { kind: 'test' } }), 422);
  assertErrorShape(url, await org.req('PATCH', `${url}/${withNext.body.id}`, { body: { result: 'negative' } }), 422);
  await org.req('PATCH', `${url}/${withNext.body.id}`, { body: { next_due_on: null, lot: 'L2' } });
  assert.equal((await org.req('GET', url)).body.due.length, 0);
  const one = await org.req('GET', `${url}/${withNext.body.id}`);
  assert.equal(one.body.lot, 'L2');
  assertErrorShape(url, await org.req('DELETE', `${url}/${withNext.body.id}`, { key: org.keys.staff }), 403);
  assert.equal((await org.req('DELETE', `${url}/${withNext.body.id}`)).status, 204);
  assertErrorShape(url, await org.req('GET', `${url}/${withNext.body.id}`), 404);
});

test('spayed/neutered: an altering procedure sets the date in the zone; PUT sets or clears it; Family A shape unchanged', async () => {
  const org = await makeOrg(t, { timeZone: ZONE });
  const a = await animal(org, { species: 'cat' });
  const spay = await item(org, { kind: 'procedure', name: 'Spay', species: [], alters: true });
  const before = await org.req('GET', `/api/v1/animals/${a}`);
  const url = `/api/animals/${a}/medical`;
  assert.deepEqual((await org.req('GET', url)).body.altered, { altered: false, altered_on: null });
  await org.req('POST', url, { body: { item_id: spay.id, given_at: '2026-03-10T02:00:00Z' } });
  assert.deepEqual((await org.req('GET', url)).body.altered, { altered: true, altered_on: '2026-03-09' }, 'the day in New York');
  await org.req('POST', url, { body: { item_id: spay.id, given_at: '2026-04-10T15:00:00Z' } });
  assert.equal((await org.req('GET', url)).body.altered.altered_on, '2026-03-09', 'a later record keeps the earlier day');
  const after = await org.req('GET', `/api/v1/animals/${a}`);
  assert.deepEqual(Object.keys(after.body).sort(), Object.keys(before.body).sort());
  assertErrorShape(url, await org.req('PUT', `${url}/altered`, { body: { altered: false, altered_on: '2026-01-01' } }), 422);
  assertErrorShape(url, await org.req('PUT', `${url}/altered`, { body: { altered: true, altered_on: '2999-01-01' } }), 422);
  const put = await org.req('PUT', `${url}/altered`, { body: { altered: false } });
  assert.deepEqual(put.body, { altered: false, altered_on: null });
  const unknownDay = await org.req('PUT', `${url}/altered`, { body: { altered: true, altered_on: null } });
  assert.deepEqual(unknownDay.body, { altered: true, altered_on: null });
});

test('due list: due and overdue as of a day in the zone, filters, only animals in care, ordered by date, paged', async () => {
  const org = await makeOrg(t, { timeZone: ZONE });
  const loc = await org.req('POST', '/api/animals/locations', { body: { name: 'Main', type: 'shelter' } });
  const dog = await animal(org, { species: 'dog', locationId: loc.body.id });
  const cat = await animal(org, { species: 'cat' });
  const gone = await animal(org, { species: 'dog', status: 'Adopted' });
  const d1 = await dueItem(org, dog, '2026-05-01');
  const d2 = await dueItem(org, cat, '2026-05-03');
  await dueItem(org, dog, '2026-05-04');
  await dueItem(org, gone, '2026-05-01');
  const tr = await item(org, { kind: 'treatment', name: 'Dewormer', species: [] });
  const d3 = (await org.req('POST', `/api/animals/${cat}/medical/due`, { body: { item_id: tr.id, due_on: '2026-04-20' } })).body;
  const list = await org.req('GET', '/api/animals/medical/due?as_of=2026-05-03');
  assert.equal(list.status, 200, list.raw);
  assert.deepEqual(
    list.body.results.map((r: any) => [r.id, r.state, r.days_overdue]),
    [
      [d3.id, 'overdue', 13],
      [d1.id, 'overdue', 2],
      [d2.id, 'due', 0],
    ],
  );
  const only = async (qs: string) =>
    (await org.req('GET', `/api/animals/medical/due?as_of=2026-05-03&${qs}`)).body.results.map((r: any) => r.id);
  assert.deepEqual(await only('species=CAT'), [d3.id, d2.id]);
  assert.deepEqual(await only(`location_id=${loc.body.id}`), [d1.id]);
  assert.deepEqual(await only('kind=treatment'), [d3.id]);
  const page = await org.req('GET', '/api/animals/medical/due?as_of=2026-05-03&limit=2&offset=1');
  assert.equal(page.body.has_more, false);
  assert.equal(page.body.results.length, 2);
  const today = await org.req('GET', '/api/animals/medical/due');
  assert.equal(today.body.as_of, todayIn(ZONE));
  assert.equal('through' in list.body, false);
  // Due ahead: the next N days after as_of too, states still against as_of.
  const ahead = await org.req('GET', '/api/animals/medical/due?as_of=2026-05-03&within_days=1');
  assert.equal(ahead.status, 200, ahead.raw);
  assert.deepEqual([ahead.body.as_of, ahead.body.through], ['2026-05-03', '2026-05-04']);
  assert.deepEqual(
    ahead.body.results.map((r: any) => [r.state, r.days_overdue, r.due_on]),
    [
      ['overdue', 13, '2026-04-20'],
      ['overdue', 2, '2026-05-01'],
      ['due', 0, '2026-05-03'],
      ['upcoming', 0, '2026-05-04'],
    ],
  );
  const week = await org.req('GET', '/api/animals/medical/due?within_days=7');
  assert.equal(week.body.through, addDays(todayIn(ZONE), 7));
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/medical/due?within_days=0'), 422);
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/medical/due?within_days=91'), 422);
  const other = await makeOrg(t, { timeZone: ZONE });
  assert.deepEqual((await other.req('GET', '/api/animals/medical/due?as_of=2026-05-03&within_days=30')).body.results, []);
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/medical/due?as_of=2026-13-01'), 422);
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/medical/due?kind=x'), 422);
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/medical/due?limit=101'), 422);
});

test('calendar: medical due, foster ended and transports per animal and org-wide; window limits; iCalendar feed', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { species: 'dog', name: 'Rex' });
  const b = await animal(org, { species: 'dog', name: 'Ace' });
  const d = await dueItem(org, a, '2026-06-10');
  await dueItem(org, b, '2026-06-11');
  const run = await org.req('POST', '/api/animals/transports', {
    body: { name: 'North relay', scheduled_date: '2026-06-12', origin: 'Here', destination: 'There' },
  });
  assert.equal(run.status, 200, run.raw);
  const added = await org.req('POST', `/api/animals/transports/${run.body.id}/animals`, { body: { animal_id: a } });
  assert.ok(added.status < 300, added.raw);
  const cal = await org.req('GET', `/api/animals/${a}/calendar?from=2026-06-01&to=2026-06-30`);
  assert.equal(cal.status, 200, cal.raw);
  assert.deepEqual(
    cal.body.results.map((e: any) => [e.date, e.kind, e.source_id]),
    [
      ['2026-06-10', 'medical_due', d.id],
      ['2026-06-12', 'transport', run.body.id],
    ],
  );
  const all = await org.req('GET', '/api/animals/calendar?from=2026-06-01&to=2026-06-30');
  assert.deepEqual(
    all.body.results.map((e: any) => e.animal_name),
    ['Rex', 'Ace', 'Rex'],
  );
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/calendar?from=2026-01-01&to=2026-04-03'), 422);
  assert.equal((await org.req('GET', '/api/animals/calendar?from=2026-01-01&to=2026-04-02')).status, 200, '92 days inclusive');
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/calendar?from=2026-02-01&to=2026-01-01'), 422);
  assertErrorShape('/api/animals', await org.req('GET', '/api/animals/calendar?from=2026-02-01'), 400);

  // feeds: due dates near today so they fall in the feed's window
  const soon = addDays(todayIn('America/New_York'), 5);
  await dueItem(org, a, soon);
  const link = await org.req('GET', `/api/animals/${a}/calendar-feed`);
  assert.equal(link.status, 200, link.raw);
  const m = /^http:\/\/[^/]+(\/api\/animals\/calendar-feeds\/([0-9A-Za-z]{40})\.ics)$/.exec(link.body.url);
  assert.ok(m, link.body.url);
  assert.equal((await org.req('GET', `/api/animals/${a}/calendar-feed`)).body.url, link.body.url, 'stable until rotated');
  const feed = await request(t, org.host, 'GET', m[1] ?? '', { key: null });
  assert.equal(feed.status, 200);
  assert.match(String(feed.headers['content-type']), /^text\/calendar/);
  assert.match(feed.raw, new RegExp(`DTSTART;VALUE=DATE:${soon.replace(/-/g, '')}`));
  assert.equal((feed.raw.match(/BEGIN:VEVENT/g) ?? []).length, 1);
  const orgLink = await org.req('GET', '/api/animals/calendar-feed');
  assert.equal(orgLink.body.animal_id, null);
  assert.notEqual(orgLink.body.url, link.body.url);
  const rotated = await org.req('POST', `/api/animals/${a}/calendar-feed/rotate`);
  assert.notEqual(rotated.body.url, link.body.url);
  assert.equal((await request(t, org.host, 'GET', m[1] ?? '', { key: null })).status, 404);
  const other = await makeOrg(t);
  assert.equal((await request(t, other.host, 'GET', new URL(rotated.body.url).pathname, { key: null })).status, 404);
});

// ---- security ----
const catalogueItem = async (o: TestOrg) => (await item(o)).id;
const withRecord = async (o: TestOrg) => {
  const a = await animal(o);
  const r = await o.req('POST', `/api/animals/${a}/medical`, {
    body: { kind: 'treatment', name: 'Bath', given_at: '2026-01-01T10:00:00Z' },
  });
  return `/api/animals/${a}/medical/${r.body.id as string}`;
};
const withDue = async (o: TestOrg, suffix = '') => {
  const a = await animal(o);
  const d = await dueItem(o, a, '2026-01-01');
  return `/api/animals/${a}/medical/due/${d.id}${suffix}`;
};

securitySuite('medical', () => t, [
  { method: 'GET', path: () => '/api/animals/medical/catalogue', area: 'animals', level: 'read', seed: catalogueItem },
  { method: 'GET', path: async (o) => `/api/animals/medical/catalogue/${await catalogueItem(o)}`, area: 'animals', level: 'read' },
  { method: 'POST', path: () => '/api/animals/medical/catalogue', body: { kind: 'test', name: 'FeLV' }, area: 'animals', level: 'admin' },
  {
    method: 'PATCH',
    path: async (o) => `/api/animals/medical/catalogue/${await catalogueItem(o)}`,
    body: { default_product: 'P' },
    area: 'animals',
    level: 'admin',
  },
  { method: 'DELETE', path: async (o) => `/api/animals/medical/catalogue/${await catalogueItem(o)}`, area: 'animals', level: 'admin' },
  {
    method: 'GET',
    path: () => '/api/animals/medical/protocols',
    area: 'animals',
    level: 'read',
    seed: async (o) => (await protocol(o, await catalogueItem(o))).id,
  },
  {
    method: 'GET',
    path: async (o) => `/api/animals/medical/protocols/${(await protocol(o, await catalogueItem(o))).id}`,
    area: 'animals',
    level: 'read',
  },
  {
    method: 'POST',
    path: () => '/api/animals/medical/protocols',
    body: { name: 'Bad item', species: 'dog', item_id: 'mci_none', doses: 1 },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'PATCH',
    path: async (o) => `/api/animals/medical/protocols/${(await protocol(o, await catalogueItem(o))).id}`,
    body: { active: false },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'DELETE',
    path: async (o) => `/api/animals/medical/protocols/${(await protocol(o, await catalogueItem(o))).id}`,
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'GET',
    path: () => '/api/animals/medical/due?as_of=2026-02-01',
    area: 'animals',
    level: 'read',
    seed: async (o) => (await withDue(o)).split('/').pop() ?? '',
  },
  { method: 'GET', path: async (o) => `/api/animals/${await animal(o)}/medical`, area: 'animals', level: 'read' },
  { method: 'GET', path: withRecord, area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/animals/${await animal(o)}/medical`,
    body: { kind: 'test', name: 'Parvo', given_at: '2026-01-01T00:00:00Z' },
    area: 'animals',
    level: 'write',
  },
  { method: 'PATCH', path: withRecord, body: { lot: 'X' }, area: 'animals', level: 'write' },
  { method: 'DELETE', path: withRecord, area: 'animals', level: 'admin' },
  {
    method: 'PUT',
    path: async (o) => `/api/animals/${await animal(o)}/medical/altered`,
    body: { altered: true },
    area: 'animals',
    level: 'write',
  },
  { method: 'GET', path: async (o) => `/api/animals/${await animal(o)}/medical/due`, area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/animals/${await animal(o)}/medical/due`,
    body: { item_id: 'mci_none', due_on: '2026-01-01' },
    area: 'animals',
    level: 'write',
  },
  { method: 'DELETE', path: (o) => withDue(o), area: 'animals', level: 'admin' },
  { method: 'POST', path: (o) => withDue(o, '/complete'), body: {}, area: 'animals', level: 'write' },
  {
    method: 'POST',
    path: async (o) => `/api/animals/${await animal(o)}/medical/apply-protocols`,
    body: {},
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/animals/calendar?from=2025-12-15&to=2026-01-15',
    area: 'animals',
    level: 'read',
    seed: async (o) => (await withDue(o)).split('/').pop() ?? '',
  },
  {
    method: 'GET',
    path: async (o) => `/api/animals/${await animal(o)}/calendar?from=2026-01-01&to=2026-01-31`,
    area: 'animals',
    level: 'read',
  },
  { method: 'GET', path: () => '/api/animals/calendar-feed', area: 'animals', level: 'read', singleton: true },
  { method: 'POST', path: () => '/api/animals/calendar-feed/rotate', area: 'animals', level: 'write' },
  { method: 'GET', path: async (o) => `/api/animals/${await animal(o)}/calendar-feed`, area: 'animals', level: 'read' },
  { method: 'POST', path: async (o) => `/api/animals/${await animal(o)}/calendar-feed/rotate`, area: 'animals', level: 'write' },
]);

test('due list: an outcome sets the animal’s open items aside (still on its own list); its next intake brings them back', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const d = await dueItem(org, a, '2026-01-05');
  const listed = async () =>
    ((await org.req('GET', '/api/animals/medical/due?as_of=2026-02-01&limit=100')).body.results as { id: string }[]).some(
      (x) => x.id === d.id,
    );
  assert.equal(await listed(), true, 'overdue while in care');
  const out = await org.req('POST', `/api/animals/${a}/outcomes`, { body: { occurred_at: '2026-01-10T12:00:00Z', type: 'transfer_out' } });
  assert.equal(out.status, 201, out.raw);
  assert.equal(await listed(), false, 'set aside once the animal left');
  // Even if its status is put back to one in care by hand, a set-aside item waits for an intake.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${a}`, { body: { status: 'Available' } })).status, 200);
  assert.equal(await listed(), false);
  assert.ok(
    (await dueOf(org, a)).some((x) => x.id === d.id),
    "still on the animal's own list",
  );
  const back = await org.req('POST', `/api/animals/${a}/intakes`, { body: { occurred_at: '2026-01-20T12:00:00Z', type: 'transfer_in' } });
  assert.equal(back.status, 201, back.raw);
  assert.equal(await listed(), true, 'back after the intake');
});
