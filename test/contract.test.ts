/** Contract rules found broken by a black-box audit; each test fails if its rule breaks again. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const animalBody = { name: 'Biscuit', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' };

test('a textarea custom field counts characters (code points), not UTF-16 units: 5,000 emoji pass, 5,001 do not', async () => {
  const org = await makeOrg(t);
  const def = await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'story', field_label: 'Story', field_type: 'textarea' },
  });
  assert.equal(def.status, 201, JSON.stringify(def.body));
  const ok = await org.req('POST', '/api/v1/animals', { body: { ...animalBody, customFields: { story: '🐶'.repeat(5000) } } });
  assert.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
  const tooLong = await org.req('POST', '/api/v1/animals', { body: { ...animalBody, customFields: { story: '🐶'.repeat(5001) } } });
  assertErrorShape('/api/v1/animals', tooLong, 422, 'VALIDATION_ERROR');
});

test('a microchip number that normalizes to nothing is refused like "" (422 naming microchipNumber), on create and update', async () => {
  const org = await makeOrg(t);
  const res = await org.req('POST', '/api/v1/animals', { body: { ...animalBody, microchipNumber: '***' } });
  assertErrorShape('/api/v1/animals', res, 422, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(res.body.error.fields), ['microchipNumber']);
  const a = await org.req('POST', '/api/v1/animals', { body: { ...animalBody, microchipNumber: '985-1' } });
  assert.equal(a.status, 201);
  const upd = await org.req('PATCH', `/api/v1/animals/${a.body.id}`, { body: { microchipNumber: ' - . ' } });
  assertErrorShape('/api/v1/animals', upd, 422, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(upd.body.error.fields), ['microchipNumber']);
  assert.equal((await org.req('GET', `/api/v1/animals/${a.body.id}`)).body.microchipNumber, '9851');
});

const IMPORT = '/api/shifts/schedules/import';

test('schedule import: a row that is not an object is a line error (200 on a dry run), not a refused body', async () => {
  const org = await makeOrg(t);
  const res = await org.req('POST', IMPORT, { body: { dry_run: true, rows: [{ name: 'Walk', starts_at: '2026-12-01' }, null, 7, ['x']] } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.total_rows, 4);
  assert.equal(res.body.would_create, 1);
  assert.deepEqual(
    res.body.errors.map((e: { line: number }) => e.line),
    [2, 3, 4],
  );
  const real = await org.req('POST', IMPORT, { body: { rows: [null] } });
  assert.equal(real.status, 200);
  assert.equal(real.body.created, 0);
  assert.deepEqual(
    real.body.errors.map((e: { line: number }) => e.line),
    [1],
  );
});

test('schedule import: lacking only write on Shifts is the ordinary 403; lacking read on People is the coordinator sentence', async () => {
  const org = await makeOrg(t);
  const body = { dry_run: true, rows: [{ name: 'Walk', starts_at: '2026-12-01' }] };
  const noWrite = await org.req('POST', IMPORT, { key: await org.keyWith({ shifts: 'read', people: 'read' }), body });
  assertErrorShape(IMPORT, noWrite, 403);
  assert.doesNotMatch(noWrite.body.error, /coordinator/);
  assert.equal(noWrite.body.error, "This key's role needs write permission on Shifts for this.");
  const noPeople = await org.req('POST', IMPORT, { key: await org.keyWith({ shifts: 'write' }), body });
  assertErrorShape(IMPORT, noPeople, 403);
  assert.match(noPeople.body.error, /only a coordinator/i);
  assert.match(noPeople.body.error, /People/);
  const neither = await org.req('POST', IMPORT, { key: await org.keyWith({ shifts: 'read' }), body });
  assert.match(neither.body.error, /coordinator/);
});

test('Family B strings the spec does not mark nullable are "" when empty: foster homes and assignments, transport legs', async () => {
  const org = await makeOrg(t);
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Fay', lastName: 'Foster', email: `fay-${org.slug}@example.com` },
  });
  const home = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: p.body.id, capacity: 2 } });
  assert.equal(home.status, 201, JSON.stringify(home.body));
  const h = home.body.foster_home ?? home.body;
  assert.equal(h.approved_on, '');
  assert.equal(h.person.phone, '');
  const a = await org.req('POST', '/api/v1/animals', { body: animalBody });
  const offer = await org.req('POST', `/api/animals/foster-homes/${h.id}/assignments`, { body: { animal_id: a.body.id } });
  assert.ok(offer.status === 201 || offer.status === 200, JSON.stringify(offer.body));
  const full = await org.req('GET', `/api/animals/foster-homes/${h.id}`);
  const asg = full.body.foster_home.assignments[0];
  for (const f of ['started_on', 'ended_on', 'end_reason', 'decline_reason']) assert.equal(asg[f], '', f);
  const run = await org.req('POST', '/api/animals/transports', {
    body: { name: 'North', scheduled_date: '2030-05-01', origin: 'A', destination: 'B' },
  });
  assert.ok(run.status < 300, JSON.stringify(run.body));
  const leg = await org.req('POST', `/api/animals/transports/${run.body.id}/legs`, { body: { from_place: 'A', to_place: 'B' } });
  assert.equal(leg.status, 201, JSON.stringify(leg.body));
  const l = leg.body.legs[0];
  for (const f of ['driver_person_id', 'depart_at', 'arrive_at', 'driver_name']) assert.equal(l[f], '', f);
  // The description says the same: these are strings, not nullable.
  const doc = (await org.req('GET', '/api/openapi.json')).body;
  const schemas = doc.components.schemas;
  assert.equal(schemas.TransportLeg.properties.arrive_at.type, 'string');
  assert.deepEqual(schemas.FosterAssignment.properties.end_reason.type, 'string');
  assert.ok(schemas.FosterAssignment.properties.end_reason.enum.includes(''));
});

test("a person's address is always the object with its six fields (all null when none was sent)", async () => {
  const org = await makeOrg(t);
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'No', lastName: 'Address', email: `na-${org.slug}@example.com` },
  });
  assert.equal(p.status, 201);
  const none = { line1: null, line2: null, city: null, state: null, postalCode: null, country: null };
  assert.deepEqual(p.body.address, none);
  assert.deepEqual((await org.req('GET', `/api/v1/people/${p.body.id}`)).body.address, none);
  const withAddr = await org.req('POST', '/api/v1/people', {
    body: {
      firstName: 'A',
      lastName: 'B',
      email: `wa-${org.slug}@example.com`,
      address: { line1: '1 Main St', city: 'Springfield', country: 'US', state: 'IL' },
    },
  });
  assert.deepEqual(withAddr.body.address, {
    line1: '1 Main St',
    line2: null,
    city: 'Springfield',
    state: 'IL',
    postalCode: null,
    country: 'US',
  });
  const cleared = await org.req('PATCH', `/api/v1/people/${withAddr.body.id}`, { body: { address: null } });
  assert.deepEqual(cleared.body.address, none);
});

test('the harness checks every answer against the served description: an undocumented status or a body off its schema fails', async () => {
  const { testApp: make, request } = await import('./harness.ts');
  const drift = await make({}, (app) => {
    app.get(
      '/api/v1/drift-check',
      {
        config: { public: true },
        schema: {
          querystring: { type: 'object', properties: { teapot: { type: 'string' } } },
          response: { 200: { type: 'object', properties: { kind: { type: 'string', enum: ['ok'] } }, required: ['kind'] } },
        },
      },
      async (req, reply) => ((req.query as { teapot?: string }).teapot ? reply.code(418 as 200).send({ kind: 'ok' }) : { kind: 'other' }),
    );
  });
  try {
    const org = await makeOrg(drift);
    await assert.rejects(request(drift, org.host, 'GET', '/api/v1/drift-check'), /Description drift: .*body does not match/);
    await assert.rejects(request(drift, org.host, 'GET', '/api/v1/drift-check?teapot=1'), /Description drift: .*418/);
  } finally {
    await drift.close();
  }
});
