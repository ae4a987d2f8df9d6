// The portal in a real Chromium, phone first: at 375 px a foster signs in from the link in the emailed invitation (read
// from the message log), posts an update with a photo, records a weight and asks for supplies; staff open the staff
// app's review screen, see the update with its photo and approve it, then change the portal's settings and the portal
// follows; a volunteer books a shift and cancels it. Every portal page is also looked at at 768 px and 1280 px (no
// sideways scrolling, the content no wider than the layout's column) and checked with axe; screenshots at 375 px and
// desk width go to docs/screenshots/portal-*.png, the tablet ones to the system's temporary folder.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
import { makePerson } from './testing.ts';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  bench = await startBrowser(() => testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=portal' }));
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

/**
 * The page as it stands at 375, 768 and 1280 px: nothing wider than the window (no sideways scrolling) and the main
 * column no wider than the layout's; pictures at 375 px (`portal-<name>.png`) and desk width (`portal-<name>-desk.png`)
 * into docs/screenshots, at 768 px into the temporary folder. The page is left at 375 px.
 */
async function atWidths(page: Page, name: string) {
  for (const width of [768, 1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    const m = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      main: document.querySelector('main .in')?.getBoundingClientRect().width ?? 0,
      widest: Math.max(...[...document.querySelectorAll('main *')].map((e) => e.getBoundingClientRect().right)),
    }));
    assert.ok(m.scroll <= m.inner, `${name} at ${width} px scrolls sideways (${m.scroll} > ${m.inner})`);
    assert.ok(m.widest <= m.inner, `${name} at ${width} px has something past the right edge (${m.widest})`);
    assert.ok(m.main <= 1120, `${name} at ${width} px: the column is ${m.main} px wide`);
    if (width === 375) await shot(page, name, 'portal');
    else if (width === 1280) await shot(page, `${name}-desk`, 'portal');
    else await page.screenshot({ path: path.join(tmpdir(), `portal-${name}-${width}.png`) });
  }
}

const JOURNEY =
  'a foster at 375 px posts an update, a weight and a request; staff approve it and set the portal; a volunteer books and cancels';
test(JOURNEY, async () => {
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
  // The header leads to the portal's own pages, and back to the website.
  const header = page.getByRole('navigation', { name: 'Portal' });
  assert.equal(await header.getByRole('link', { name: 'Home' }).getAttribute('href'), '/portal/');
  assert.equal(await header.getByRole('link', { name: 'Account' }).getAttribute('href'), '/portal/account');
  assert.equal(await header.getByRole('link', { name: 'Website' }).getAttribute('href'), '/');
  assert.equal(await header.getByRole('link', { name: 'Shifts' }).count(), 0, 'a foster who is no volunteer has no shifts link');
  await atWidths(page, 'foster-home');
  await header.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await axe(page, 'the account page');
  await atWidths(page, 'account');
  await header.getByRole('link', { name: 'Home' }).click();
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
  await atWidths(page, 'foster-animal');

  // Staff open the review screen in the staff app, see the update with its photo, and approve it.
  const { session } = await org.sessionWith('admin');
  const staff = await openPage(bench, { org, session, width: 1280, height: 900 });
  await staff.page.goto(`${bench.base(org)}/app/portal-updates`);
  await staff.page.getByRole('heading', { name: 'Foster updates' }).waitFor();
  const card = staff.page.getByRole('region', { name: 'Update on Pickle from Fern Okafor' });
  await card.getByText('Pickle finished her food and chased a ribbon all evening.').waitFor();
  const img = card.getByRole('img', { name: 'Photo 1 of Pickle from the foster' });
  await img.waitFor();
  await staff.page.waitForFunction(
    (el) => (el as HTMLImageElement | null)?.complete && (el as HTMLImageElement).naturalWidth > 0,
    await img.elementHandle(),
  );
  await axe(staff.page, 'the review screen');
  await shot(staff.page, 'portal-updates');
  await card.getByRole('button', { name: 'Approve' }).click();
  await staff.page.getByText('The update on Pickle is approved.').waitFor();
  await staff.page.getByText('No update waits for review.').waitFor();
  // Over HTTP: the update is approved and its photo public; the note stays internal.
  const reviewed = await org.req('GET', '/api/portal/foster-updates?status=approved');
  assert.equal(reviewed.body.results.length, 1);
  assert.equal(reviewed.body.results[0].person_name, 'Fern Okafor');
  assert.match(reviewed.body.results[0].reviewed_by, /^member:/);
  assert.equal((await org.req('GET', '/api/portal/foster-updates')).body.results.length, 0);
  const photos = await org.req('GET', `/api/animals/${animal.body.id}/photos`);
  assert.equal(photos.body.results[0].is_public, true);
  const note = await org.req('GET', `/api/animals/${animal.body.id}/notes`);
  assert.equal(note.body.results.find((n: { kind: string }) => n.kind === 'foster')?.visibility, 'internal');
  await page.reload();
  await page.getByText('approved').first().waitFor();
  const weights = await org.req('GET', `/api/animals/${animal.body.id}/weights`);
  assert.equal(Number(weights.body.results[0].weight), 1.4);
  const tasks = await org.req('GET', `/api/tasks?linked_type=animal&linked_id=${animal.body.id}`);
  assert.match(tasks.body.results[0].title, /^Supplies for Pickle \(asked by Fern Okafor\)/);
  assert.deepEqual(errors, []);
  await context.close();

  // Staff change the portal's settings in the staff app: welcome words, and the donors' part off.
  await staff.page.goto(`${bench.base(org)}/app/settings`);
  await staff.page.getByRole('tab', { name: 'Portal' }).click();
  const form = staff.page.getByRole('form', { name: 'The portal' });
  await form.getByText('Ark’s defaults until changed.', { exact: false }).waitFor();
  const donors = form.getByRole('checkbox', { name: 'Donors see their part' });
  assert.equal(await donors.isChecked(), true);
  await donors.uncheck();
  await form.getByText('Off: donors see nothing of it.').waitFor();
  await form.getByRole('textbox', { name: 'Welcome words on the sign-in page' }).fill('Fosters and volunteers of the harbour: welcome.');
  await axe(staff.page, 'the portal settings');
  await form.getByRole('button', { name: 'Save the portal settings' }).click();
  await staff.page.getByText('Portal settings saved').waitFor();
  await shot(staff.page, 'settings-portal');
  const saved = await org.req('GET', '/api/settings/portal');
  assert.equal(saved.body.donor, false);
  assert.equal(saved.body.welcome, 'Fosters and volunteers of the harbour: welcome.');
  assert.deepEqual(staff.errors, []);
  await staff.context.close();

  // A volunteer (and donor) books a shift and cancels it; with the donors' part off, no gifts are shown.
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
  const volId = await makePerson(org, {
    firstName: 'Vik',
    lastName: 'Amari',
    email: 'vik@example.org',
    roles: ['volunteer', 'donor'],
  });
  await org.req('POST', `/api/people/${volId}/portal-invitations`);
  const v = await openPage(bench, { width: 375, height: 812 });
  await v.page.goto(await linkFromLog(org, 'vik@example.org'));
  await v.page.getByRole('button', { name: 'Continue to the portal' }).click();
  await v.page.getByRole('heading', { name: 'Hello, Vik' }).waitFor();
  const vNav = v.page.getByRole('navigation', { name: 'Portal' });
  assert.equal(await vNav.getByRole('link', { name: 'Gifts' }).count(), 0, 'the donors part is off');
  assert.equal(await v.page.getByText('Your gifts and year-end statements').count(), 0);
  await atWidths(v.page, 'volunteer-home');
  await vNav.getByRole('link', { name: 'Shifts' }).click();
  await v.page.getByRole('heading', { name: 'Shifts', exact: true }).waitFor();
  await v.page.getByText('3 of 3 places left').waitFor();
  await axe(v.page, 'the shifts page');
  await v.page.getByRole('button', { name: /^Book Dog walking/ }).click();
  await v.page.getByText('You are booked on the shift.').waitFor();
  await shot(v.page, 'volunteer-shifts', 'portal');
  await atWidths(v.page, 'shifts');
  const booked = await org.req('GET', `/api/shifts/bookings?person_id=${volId}`);
  assert.equal(booked.body.results[0].status, 'booked');
  await v.page.getByRole('button', { name: /^Cancel Dog walking/ }).click();
  await v.page.getByText('Your booking is cancelled.').waitFor();
  assert.equal((await org.req('GET', `/api/shifts/bookings/${booked.body.results[0].id}`)).body.status, 'cancelled');
  assert.deepEqual(v.errors, []);
  await v.context.close();

  // The sign-in page, as someone without a session sees it: the staff's welcome words.
  const anon = await openPage(bench, { width: 375, height: 812 });
  await anon.page.goto(`${bench.base(org)}/portal/`);
  await anon.page.getByRole('heading', { name: 'Harbour Cats Rescue portal' }).waitFor();
  await anon.page.getByText('Fosters and volunteers of the harbour: welcome.').waitFor();
  await axe(anon.page, 'the sign-in page');
  await atWidths(anon.page, 'sign-in');
  await anon.context.close();
});
