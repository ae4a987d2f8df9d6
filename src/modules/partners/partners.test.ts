import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Vet', lastName: `P${++n}`, email: `vet${n}.${Math.random().toString(36).slice(2, 6)}@example.org` },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.id;
}
async function partner(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const r = await org.req('POST', '/api/partners', { body: { kind: 'vet', name: 'Maple Vet', ...body } });
  assert.equal(r.status, 201, r.raw);
  return r.body.id;
}

test('partners: checked email, website, E.164 phone; listed by name with kind and q filters; patch; 404 after delete', async () => {
  const org = await makeOrg(t);
  const r = await org.req('POST', '/api/partners', {
    body: {
      kind: 'shelter',
      name: 'County Shelter',
      contact_name: 'Desk',
      email: 'desk@county.example.org',
      phone: '(212) 555-0150',
      website: 'https://county.example.org',
    },
  });
  assert.equal(r.status, 201, r.raw);
  assert.match(r.body.id, /^ptn_/);
  assert.equal(r.body.phone, '+12125550150');
  assert.equal(r.body.notes, '');
  await partner(org, { name: 'Acme Vet' });
  const list = await org.req('GET', '/api/partners');
  assert.deepEqual(
    list.body.results.map((p: any) => p.name),
    ['Acme Vet', 'County Shelter'],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/partners?kind=shelter')).body.results.map((p: any) => p.name),
    ['County Shelter'],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/partners?q=acme')).body.results.map((p: any) => p.name),
    ['Acme Vet'],
  );
  assertErrorShape('/api/partners', await org.req('POST', '/api/partners', { body: { kind: 'vet', name: 'x', email: 'nope' } }), 422);
  assertErrorShape('/api/partners', await org.req('POST', '/api/partners', { body: { kind: 'vet', name: 'x', phone: 'call us' } }), 422);
  assertErrorShape('/api/partners', await org.req('POST', '/api/partners', { body: { kind: 'zoo', name: 'x' } }), 422);
  assertErrorShape('/api/partners', await org.req('POST', '/api/partners', { body: { kind: 'vet' } }), 400);
  const p = await org.req('PATCH', `/api/partners/${r.body.id}`, { body: { notes: 'Takes transfers on Tuesdays', phone: null } });
  assert.equal(p.status, 200, p.raw);
  assert.deepEqual([p.body.notes, p.body.phone, p.body.name], ['Takes transfers on Tuesdays', null, 'County Shelter']);
  assert.equal((await org.req('DELETE', `/api/partners/${r.body.id}`)).status, 204);
  assertErrorShape('/api/partners/x', await org.req('GET', `/api/partners/${r.body.id}`), 404);
  assertErrorShape('/api/partners/x', await org.req('PATCH', `/api/partners/${r.body.id}`, { body: { name: 'y' } }), 404);
  const other = await makeOrg(t);
  assert.equal((await other.req('GET', '/api/partners')).body.results.length, 0);
});

test('locations (address, phone, hours) and affiliations (person, role, from/until) of a partner', async () => {
  const org = await makeOrg(t);
  const id = await partner(org);
  const loc = await org.req('POST', `/api/partners/${id}/locations`, {
    body: {
      name: 'Main',
      line1: '41 Maple St',
      city: 'Springfield',
      postal_code: '12010',
      country: 'US',
      phone: '212 555 0141',
      hours: 'Mon-Fri 8-18',
    },
  });
  assert.equal(loc.status, 201, loc.raw);
  assert.deepEqual([loc.body.phone, loc.body.hours, loc.body.state], ['+12125550141', 'Mon-Fri 8-18', null]);
  assertErrorShape(
    '/api/partners/x',
    await org.req('POST', `/api/partners/${id}/locations`, { body: { line1: 'x', city: 'y', country: 'ZZ' } }),
    422,
  );
  const lp = await org.req('PATCH', `/api/partners/${id}/locations/${loc.body.id}`, { body: { hours: 'closed' } });
  assert.equal(lp.body.hours, 'closed');
  assert.equal((await org.req('GET', `/api/partners/${id}/locations`)).body.results.length, 1);

  const p = await person(org);
  const af = await org.req('POST', `/api/partners/${id}/affiliations`, { body: { person_id: p, role: 'vet', valid_from: '2022-01-01' } });
  assert.equal(af.status, 201, af.raw);
  assert.deepEqual([af.body.person_id, af.body.role, af.body.valid_from, af.body.valid_until], [p, 'vet', '2022-01-01', null]);
  assertErrorShape(
    '/api/partners/x',
    await org.req('POST', `/api/partners/${id}/affiliations`, { body: { person_id: 'per_nobody', role: 'vet' } }),
    422,
  );
  assertErrorShape(
    '/api/partners/x',
    await org.req('PATCH', `/api/partners/${id}/affiliations/${af.body.id}`, { body: { valid_until: '2021-12-31' } }),
    422,
  );
  const ended = await org.req('PATCH', `/api/partners/${id}/affiliations/${af.body.id}`, { body: { valid_until: '2024-06-30' } });
  assert.equal(ended.body.valid_until, '2024-06-30');
  // Another organization's person cannot be affiliated.
  const other = await makeOrg(t);
  const theirs = await person(other);
  assertErrorShape(
    '/api/partners/x',
    await org.req('POST', `/api/partners/${id}/affiliations`, { body: { person_id: theirs, role: 'x' } }),
    422,
  );
  assertErrorShape('/api/partners/x', await other.req('GET', `/api/partners/${id}/affiliations`), 404);
  assert.equal((await org.req('DELETE', `/api/partners/${id}/affiliations/${af.body.id}`)).status, 204);
  assert.equal((await org.req('DELETE', `/api/partners/${id}/locations/${loc.body.id}`)).status, 204);
  assertErrorShape('/api/partners/x', await org.req('DELETE', `/api/partners/${id}/locations/${loc.body.id}`), 404);
});

test('an outcome, an intake and a transport can name a partner on file (422 for an unknown or deleted one, or with a person)', async () => {
  const org = await makeOrg(t);
  const id = await partner(org, { kind: 'rescue', name: 'Hudson Rescue' });
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'male' },
  });
  assert.equal(a.status, 201, a.raw);
  const url = `/api/animals/${a.body.id}`;
  assertErrorShape(
    url,
    await org.req('POST', `${url}/outcomes`, {
      body: { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out', destination_partner_id: 'ptn_none' },
    }),
    422,
  );
  const p = await person(org);
  assertErrorShape(
    url,
    await org.req('POST', `${url}/outcomes`, {
      body: { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out', destination_partner_id: id, destination_person_id: p },
    }),
    422,
  );
  const out = await org.req('POST', `${url}/outcomes`, {
    body: {
      occurred_at: '2024-02-01T10:00:00Z',
      type: 'transfer_out',
      destination_partner_id: id,
      destination_organization: 'Hudson Rescue',
    },
  });
  assert.equal(out.status, 201, out.raw);
  assert.equal(out.body.outcome.destination_partner_id, id);
  const back = await org.req('POST', `${url}/intakes`, {
    body: { occurred_at: '2024-03-01T10:00:00Z', type: 'transfer_in', source_partner_id: id },
  });
  assert.equal(back.status, 201, back.raw);
  assert.equal(back.body.intake.source_partner_id, id);
  assert.equal((await org.req('GET', `/api/animals/stays/${back.body.id}`)).body.intake.source_partner_id, id);

  const run = { name: 'Run', scheduled_date: '2030-01-02', origin: 'A', destination: 'B' };
  assertErrorShape(
    '/api/animals/transports',
    await org.req('POST', '/api/animals/transports', { body: { ...run, partner_id: 'ptn_none' } }),
    422,
  );
  const tr = await org.req('POST', '/api/animals/transports', { body: { ...run, partner_id: id } });
  assert.equal(tr.status, 200, tr.raw);
  assert.equal(tr.body.partner_id, id);
  const cleared = await org.req('PATCH', `/api/animals/transports/${tr.body.id}`, { body: { partner_id: null } });
  assert.equal(cleared.status, 200, cleared.raw);
  assert.equal(cleared.body.partner_id, null);
  // Another organization's partner, or a deleted one, cannot be named.
  const other = await makeOrg(t);
  const theirs = await partner(other);
  assertErrorShape(
    '/api/animals/transports',
    await org.req('POST', '/api/animals/transports', { body: { ...run, partner_id: theirs } }),
    422,
  );
  assert.equal((await org.req('DELETE', `/api/partners/${id}`)).status, 204);
  assertErrorShape('/api/animals/transports', await org.req('POST', '/api/animals/transports', { body: { ...run, partner_id: id } }), 422);
  assert.equal((await org.req('GET', `/api/animals/transports/${tr.body.id}`)).status, 200);
});

const loc = { line1: 'a', city: 'b', country: 'US' };
const mkSub = (kind: 'locations' | 'affiliations') => async (o: TestOrg) => {
  const id = await partner(o);
  const body = kind === 'locations' ? loc : { person_id: await person(o), role: 'r' };
  const r = await o.req('POST', `/api/partners/${id}/${kind}`, { body });
  return `/api/partners/${id}/${kind}/${r.body.id}`;
};
securitySuite('partners', () => t, [
  { method: 'GET', path: () => '/api/partners', area: 'partners', level: 'read' },
  { method: 'POST', path: () => '/api/partners', body: { kind: 'vet', name: 'S' }, area: 'partners', level: 'write' },
  { method: 'GET', path: async (o) => `/api/partners/${await partner(o)}`, area: 'partners', level: 'read' },
  { method: 'PATCH', path: async (o) => `/api/partners/${await partner(o)}`, body: { name: 'n' }, area: 'partners', level: 'write' },
  { method: 'DELETE', path: async (o) => `/api/partners/${await partner(o)}`, area: 'partners', level: 'write' },
  { method: 'GET', path: async (o) => `/api/partners/${await partner(o)}/locations`, area: 'partners', level: 'read' },
  { method: 'POST', path: async (o) => `/api/partners/${await partner(o)}/locations`, body: loc, area: 'partners', level: 'write' },
  { method: 'PATCH', path: mkSub('locations'), body: { hours: 'h' }, area: 'partners', level: 'write' },
  { method: 'DELETE', path: mkSub('locations'), area: 'partners', level: 'write' },
  { method: 'GET', path: async (o) => `/api/partners/${await partner(o)}/affiliations`, area: 'partners', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/partners/${await partner(o)}/affiliations`,
    body: { person_id: 'per_placeholder', role: 'r' },
    area: 'partners',
    level: 'write',
  },
  { method: 'PATCH', path: mkSub('affiliations'), body: { role: 'x' }, area: 'partners', level: 'write' },
  { method: 'DELETE', path: mkSub('affiliations'), area: 'partners', level: 'write' },
]);
