// The portal in a real Chromium at 375 px: a foster signs in from the link in the emailed invitation (read from the
// message log), posts an update with a photo, records a weight and asks for supplies; staff approve the update over
// the API; a volunteer books a shift and cancels it. Every page is checked with axe; screenshots go to
// docs/screenshots/portal-*.png. The portal needs no staff app build: Ark is started here without one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
import { makePerson } from './testing.ts';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  bench = await startBrowser(() => testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=portal' }), { staffApp: false });
  t = bench.t;
});
after(async () => {
  await bench?.close();
  await t?.close();
});

/** The link of the newest email to `address` in the organization's message log. */
async function linkFromLog(org: TestOrg, address: string): Promise<string> {
  const rows = await t.db.query<Record<string, unknown>>(
    'SELECT * FROM comm_messages WHERE organization_id = $1 AND recipient_address = $2 ORDER BY created_at DESC LIMIT 1',
    [org.id, address],
  );
  const link = /\/portal\/link\/[A-Za-z0-9]{43}/.exec(JSON.stringify(rows[0] ?? {}))?.[0];
  assert.ok(link, `an email with a portal link was logged for ${address}`);
  return `${bench.base(org)}${link}`;
}

test('at 375 px a foster posts an update with a photo, a weight and a request; staff approve; a volunteer books and cancels', async () => {
  const org = await makeOrg(t);
  await org.req('PATCH', '/api/settings/organization', { body: { name: 'Harbour Cats Rescue' } });
  await t.ctx.changed();
  // A foster with a kitten in care, and the shelter's care instructions.
  const fosterId = await makePerson(org, { firstName: 'Fern', lastName: 'Okafor', email: 'fern@example.org' });
  const home = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: fosterId, capacity: 3 } });
  const animal = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Pickle', species: 'cat', status: 'Available', intakeDate: '2026-01-02' },
  });
  const offer = await org.req('POST', `/api/animals/foster-homes/${home.body.foster_home.id}/assignments`, {
    body: { animal_id: animal.body.id },
  });
  await org.req('POST', `/api/animals/foster-assignments/${offer.body.id}/start`, { body: {} });
  await org.req('POST', `/api/animals/${animal.body.id}/notes`, {
    body: { kind: 'general', visibility: 'shareable', body: 'Wet kitten food four times a day. Keep her indoors.' },
  });
  const inv = await org.req('POST', `/api/people/${fosterId}/portal-invitations`);
  assert.equal(inv.status, 201, inv.raw);
  assert.equal(inv.body.emailed, true);

  const { context, page, errors } = await openPage(bench, { width: 375, height: 812 });
  await page.goto(await linkFromLog(org, 'fern@example.org'));
  await page.getByRole('heading', { name: 'Welcome to the Harbour Cats Rescue portal' }).waitFor();
  await axe(page, 'the link page');
  await page.getByRole('button', { name: 'Continue to the portal' }).click();
  await page.getByRole('heading', { name: 'Hello, Fern' }).waitFor();
  await axe(page, 'the portal home');
  await page.getByRole('link', { name: 'Pickle' }).click();
  await page.getByRole('heading', { name: 'Pickle', exact: true }).waitFor();
  await page.getByText('Wet kitten food four times a day.').waitFor();
  await axe(page, "the foster's animal page");

  // An update with a photo.
  await page.getByLabel('How is Pickle?').fill('Pickle finished her food and chased a ribbon all evening.');
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d9a066' } })
    .jpeg()
    .toBuffer();
  await page.getByLabel(/^Photos/).setInputFiles({ name: 'pickle.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByRole('button', { name: 'Send the update' }).click();
  await page.getByText('Thank you: your update is sent.').waitFor();
  await page.getByText('waiting for staff').waitFor();
  await shot(page, 'foster-update', 'portal');

  // A weight, then a request for supplies.
  await page.getByRole('textbox', { name: 'Weight' }).fill('1.4');
  await page.getByRole('button', { name: 'Record the weight' }).click();
  await page.getByText('The weight is recorded.').waitFor();
  await page.getByRole('combobox', { name: 'Kind of request' }).selectOption('supplies');
  await page.getByLabel('What is needed').fill('A bag of kitten litter, please.');
  await page.getByRole('button', { name: 'Send the request' }).click();
  await page.getByText('Your request is sent to the staff.').waitFor();
  await axe(page, 'the animal page after the foster acted');

  // Staff see the update in the review queue and approve it: the photo becomes public.
  const queue = await org.req('GET', '/api/portal/foster-updates');
  assert.equal(queue.body.results.length, 1);
  assert.equal(queue.body.results[0].person_name, 'Fern Okafor');
  const approved = await org.req('POST', `/api/portal/foster-updates/${queue.body.results[0].id}/approve`, { body: {} });
  assert.equal(approved.body.status, 'approved');
  const photos = await org.req('GET', `/api/animals/${animal.body.id}/photos`);
  assert.equal(photos.body.results[0].is_public, true);
  await page.reload();
  await page.getByText('approved').first().waitFor();
  const weights = await org.req('GET', `/api/animals/${animal.body.id}/weights`);
  assert.equal(Number(weights.body.results[0].weight), 1.4);
  const tasks = await org.req('GET', `/api/tasks?linked_type=animal&linked_id=${animal.body.id}`);
  assert.match(tasks.body.results[0].title, /^Supplies for Pickle \(asked by Fern Okafor\)/);
  assert.deepEqual(errors, []);
  await context.close();

  // A volunteer books a shift and cancels it.
  const start = new Date(Date.now() + 4 * 86_400_000);
  start.setUTCHours(12, 0, 0, 0);
  const s = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Dog walking', starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 10 * 3_600_000).toISOString() },
  });
  await org.req('POST', `/api/shifts/schedules/${s.body.id}/windows`, {
    body: {
      starts_at: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
      ends_at: new Date(start.getTime() + 4 * 3_600_000).toISOString(),
      capacity: 3,
    },
  });
  const volId = await makePerson(org, { firstName: 'Vik', lastName: 'Amari', email: 'vik@example.org', roles: ['volunteer'] });
  await org.req('POST', `/api/people/${volId}/portal-invitations`);
  const v = await openPage(bench, { width: 375, height: 812 });
  await v.page.goto(await linkFromLog(org, 'vik@example.org'));
  await v.page.getByRole('button', { name: 'Continue to the portal' }).click();
  await v.page.getByRole('heading', { name: 'Hello, Vik' }).waitFor();
  await v.page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Shifts' }).click();
  await v.page.getByRole('heading', { name: 'Shifts', exact: true }).waitFor();
  await v.page.getByText('3 of 3 places left').waitFor();
  await axe(v.page, 'the shifts page');
  await v.page.getByRole('button', { name: /^Book Dog walking/ }).click();
  await v.page.getByText('You are booked on the shift.').waitFor();
  await shot(v.page, 'volunteer-shifts', 'portal');
  const booked = await org.req('GET', `/api/shifts/bookings?person_id=${volId}`);
  assert.equal(booked.body.results[0].status, 'booked');
  await v.page.getByRole('button', { name: /^Cancel Dog walking/ }).click();
  await v.page.getByText('Your booking is cancelled.').waitFor();
  assert.equal((await org.req('GET', `/api/shifts/bookings/${booked.body.results[0].id}`)).body.status, 'cancelled');
  assert.deepEqual(v.errors, []);
  await v.context.close();

  // The sign-in page, as someone without a session sees it.
  const anon = await openPage(bench, { width: 375, height: 812 });
  await anon.page.goto(`${bench.base(org)}/portal/`);
  await anon.page.getByRole('heading', { name: 'Harbour Cats Rescue portal' }).waitFor();
  await axe(anon.page, 'the sign-in page');
  await shot(anon.page, 'sign-in', 'portal');
  await anon.context.close();
});
