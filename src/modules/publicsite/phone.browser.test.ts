// The public site on a phone, in a real Chromium (playwright-core): at 320 and 375 px wide, the list (its filters
// behind one button), an animal page and the adoption form never scroll sideways. Screenshots of the list and the
// animal page at 375 px go to docs/screenshots/public-phone-*.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { picture, uploadPublicPhoto } from './testing.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOTS = join(HERE, '../../../docs/screenshots');
const CHROMIUM = process.env.ARK_CHROMIUM ?? '/usr/bin/chromium';

let t: TestApp;
let org: TestOrg;
let base: string;
let browser: Browser;
let star = '';
let formSlug = '';

before(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  org = await makeOrg(t);
  base = `http://${org.host}:${port}`;
  await org.req('PATCH', '/api/settings/organization', {
    body: { name: 'The Greater Riverside Valley Animal Rescue League', email: 'adoptions@riverside-valley-rescue.example' },
  });
  // Two sites with long names, so the location filter shows.
  for (const name of ['Northside Adoption Centre and Kennels', 'Riverside Foster & Cattery Annex']) {
    const r = await org.req('POST', '/api/animals/locations', { body: { name, type: 'shelter' } });
    assert.ok(r.status < 300, r.raw);
  }
  const locations = (await org.req('GET', '/api/animals/locations')).body;
  const locIds = ((locations.results ?? locations.data ?? locations) as { id: string }[]).map((l) => l.id);
  for (let i = 0; i < 8; i++) {
    const r = await org.req('POST', '/api/v1/animals', {
      body: {
        name: `Kennel ${i}`,
        publicName: ['Sir Reginald Wigglebottom III', 'Luna', 'Milo', 'Bella', 'Pepper', 'Scout', 'Teddy', 'Willow'][i],
        species: i % 3 ? 'dog' : 'cat',
        breed: i % 3 ? 'Labrador Retriever / Border Collie Mix' : 'Domestic Longhair',
        sex: i % 2 ? 'male' : 'female',
        status: 'Available',
        intakeDate: '2026-10-01',
        dateOfBirth: '2023-04-01',
        isPublic: true,
        locationId: locIds[i % 2],
      },
    });
    assert.equal(r.status, 201, r.raw);
    if (i === 0) star = r.body.data?.id ?? r.body.id;
    if (i < 3)
      await uploadPublicPhoto(org, r.body.data?.id ?? r.body.id, await picture(['#f4d6b0', '#d9e4ee', '#dfe9d8'][i] ?? '#eee', '#7c96ad'));
  }
  await org.req('POST', `/api/animals/${star}/notes`, {
    body: {
      kind: 'adoption',
      visibility: 'shareable',
      body: 'Reggie is a gentle giant who loves long walks along the riverbank and a very, very long nap afterwards on the sofa.',
    },
  });
  const form = await org.req('POST', '/api/forms', {
    body: {
      name: 'Adoption application',
      slug: 'adopt',
      purpose: 'adoption_application',
      status: 'published',
      min_fill_seconds: 0,
      fields: [
        { key: 'first_name', label: 'First name', type: 'text', required: true, section: 'About you' },
        { key: 'email', label: 'Email address', type: 'email', required: true, section: 'About you' },
        { key: 'phone', label: 'A phone number we can call during the day', type: 'phone', section: 'About you' },
        { key: 'home', label: 'Home', type: 'select', options: ['House with a garden', 'Flat or apartment'], section: 'Your home' },
        { key: 'pets', label: 'Animals already at home', type: 'multiselect', options: ['Dogs', 'Cats', 'Other'], section: 'Your home' },
        { key: 'about', label: 'Tell us about your household and daily routine', type: 'textarea', section: 'Your home' },
      ],
    },
  });
  assert.equal(form.status, 201, form.raw);
  formSlug = form.body.slug;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await t?.close();
});

/** The page's widest point against the viewport: no horizontal scroll. */
async function noSideways(page: Page, label: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${label}: ${scroll} px of content in a ${client} px window`);
}

test('on a 320 and a 375 px phone no public page scrolls sideways; the filters open from one button', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [320, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${base}/animals`);
    await noSideways(page, `list at ${width}`);
    // The filters are folded behind one button on a phone; opened, they still fit.
    const species = page.getByLabel('Species');
    assert.equal(await species.isVisible(), false, 'the filters start folded');
    await page.locator('details.fb > summary').click();
    assert.equal(await species.isVisible(), true);
    await noSideways(page, `list with filters open at ${width}`);
    if (width === 375) await page.screenshot({ path: join(SHOTS, 'public-phone-list.png'), fullPage: true });
    await page.goto(`${base}/animals?species=cat`);
    assert.equal(await page.getByLabel('Species').isVisible(), true, 'a filtered list shows its filters');
    await noSideways(page, `filtered list at ${width}`);
    await page.goto(`${base}/animals/${star}`);
    await page.waitForLoadState('load');
    await noSideways(page, `animal page at ${width}`);
    assert.ok((await page.locator('main img').count()) > 0, 'the animal page shows its photo');
    if (width === 375) await page.screenshot({ path: join(SHOTS, 'public-phone-animal.png'), fullPage: true });
    await page.goto(`${base}/`);
    await noSideways(page, `home at ${width}`);
    await page.goto(`${base}/forms/${formSlug}?animal=${star}`);
    await noSideways(page, `adoption form at ${width}`);
    if (width === 375) await applyOnAPhone(page);
    await context.close();
  }
  // A wide window keeps the filters open without the button.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await desk.newPage();
  await page.goto(`${base}/animals`);
  assert.equal(await page.getByLabel('Species').isVisible(), true);
  assert.equal(await page.locator('details.fb > summary').isVisible(), false);
  // The form with a refused answer at 768 px and desk width: still no sideways scroll.
  for (const width of [768, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    const p = await ctx.newPage();
    await p.goto(`${base}/forms/${formSlug}?animal=${star}`);
    await p.getByLabel('First name').fill('Alexandra');
    await p.getByLabel('Email address').fill('alex@example.org');
    await p.getByLabel('A phone number we can call').fill('12');
    await p.getByRole('button', { name: 'Send' }).click();
    await p.getByText('Please enter a phone number we can call, e.g. 617 555 0100.').first().waitFor();
    await noSideways(p, `adoption form with an error at ${width}`);
    if (width === 1280) await p.screenshot({ path: join(SHOTS, 'public-form-error-desk.png'), fullPage: true });
    await ctx.close();
  }
  await desk.close();
});

/**
 * An adopter on a 375 px phone: a wrong phone number answers a message in plain words next to the field (never a
 * field key), with what was typed kept; fixed, the form is sent and thanked for. No page scrolls sideways.
 */
async function applyOnAPhone(page: Page) {
  await page.getByText('Applying for').waitFor();
  await page.getByLabel('First name').fill('Alexandra');
  await page.getByLabel('Email address').fill('alex@example.org');
  await page.getByLabel('A phone number we can call').fill('555 01');
  await page.getByRole('radio', { name: 'House with a garden' }).check();
  await page.getByRole('checkbox', { name: 'Cats' }).check();
  assert.equal(await page.locator('select[multiple]').count(), 0, 'no multi-select box');
  await page.getByRole('button', { name: 'Send' }).click();
  const message = 'Please enter a phone number we can call, e.g. 617 555 0100.';
  await page.locator('#f_phone_err', { hasText: message }).waitFor();
  const text = await page.locator('main').innerText();
  assert.doesNotMatch(text, /answers\.|is required|must be a /, 'no field key or API wording on the page');
  assert.equal(await page.getByLabel('A phone number we can call').inputValue(), '555 01', 'what was typed is kept');
  assert.equal(await page.getByLabel('Email address').inputValue(), 'alex@example.org');
  assert.equal(await page.getByRole('checkbox', { name: 'Cats' }).isChecked(), true);
  await noSideways(page, 'adoption form with an error at 375');
  await page.screenshot({ path: join(SHOTS, 'public-form-error-phone.png'), fullPage: true });
  await page.getByLabel('A phone number we can call').fill('617 555 0100');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('heading', { name: 'Thank you' }).waitFor();
  await noSideways(page, 'thank-you page at 375');
  const sent = (await org.req('GET', '/api/forms/submissions')).body.results[0];
  assert.equal(sent.answers.phone, '+16175550100', 'stored in E.164');
  assert.deepEqual(sent.animal_ids, [star]);
}
