/**
 * People's contact details outside the People area: a key without read on People sees names only
 * (volunteers, donors); with read on People it sees the email and phone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp } from './harness.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('volunteers and donors show email and phone only to keys that may read People', async () => {
  const org = await makeOrg(t);
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Vera', lastName: 'Contact', email: 'vera@example.org', phone: '+15035550101', roles: ['volunteer', 'donor'] },
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  const id = p.body.id as string;

  const shiftsOnly = await org.keyWith({ shifts: 'read' });
  const shiftsAndPeople = await org.keyWith({ shifts: 'read', people: 'read' });
  const hidden = (await org.req('GET', `/api/shifts/volunteers/${id}`, { key: shiftsOnly })).body;
  assert.equal(hidden.first_name, 'Vera');
  assert.equal(hidden.email, '');
  assert.equal(hidden.phone, null);
  const listed = (await org.req('GET', '/api/shifts/volunteers', { key: shiftsOnly })).body.results.find(
    (v: { id: string }) => v.id === id,
  );
  assert.equal(listed.email, '');
  assert.equal(listed.phone, null);
  const shown = (await org.req('GET', `/api/shifts/volunteers/${id}`, { key: shiftsAndPeople })).body;
  assert.equal(shown.email, 'vera@example.org');
  assert.equal(shown.phone, '+15035550101');

  const fundOnly = await org.keyWith({ fundraising: 'read' });
  const fundAndPeople = await org.keyWith({ fundraising: 'read', people: 'read' });
  const donor = (await org.req('GET', `/api/fundraising/donors/${id}`, { key: fundOnly })).body;
  assert.equal(donor.name.includes('Vera'), true);
  assert.equal(donor.email, null);
  const donors = (await org.req('GET', '/api/fundraising/donors', { key: fundOnly })).body.results;
  assert.equal(donors.find((d: { person_id: string }) => d.person_id === id).email, null);
  assert.equal((await org.req('GET', `/api/fundraising/donors/${id}`, { key: fundAndPeople })).body.email, 'vera@example.org');
  assert.ok(!JSON.stringify(donors).includes('vera@example.org'));
});
