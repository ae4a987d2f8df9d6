// The public website in a real browser (Debian's Chromium through playwright-core): the list with its
// filters and paging, an animal page, the 404 of a hidden animal, and the widget and iframe on a foreign
// page served by a second loopback server. Screenshots go to docs/screenshots/public-*.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
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
let foreign: Server;
let foreignUrl: string;
let browser: Browser;
const ids: Record<string, string> = {};

const BREEDS = ['Labrador Retriever', 'Beagle', 'Border Collie', 'German Shepherd', 'Boxer Mix', 'Terrier Mix'];
const NAMES = [
  'Biscuit',
  'Luna',
  'Milo',
  'Bella',
  'Charlie',
  'Daisy',
  'Rocky',
  'Nala',
  'Oscar',
  'Pepper',
  'Rosie',
  'Scout',
  'Teddy',
  'Willow',
  'Ziggy',
];
const COLOURS: [string, string][] = [
  ['#f4d6b0', '#c98b55'],
  ['#d9e4ee', '#7c96ad'],
  ['#efe3c2', '#b99a5b'],
  ['#e8d3d3', '#a86b6b'],
  ['#dfe9d8', '#7c9a6b'],
  ['#eadcf0', '#9a78a8'],
];

before(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  org = await makeOrg(t);
  base = `http://${org.host}:${port}`;
  await org.req('PATCH', '/api/settings/organization', {
    body: { name: 'Happy Tails Rescue', email: 'adopt@happytails.example', phone: '+1 202 555 0142' },
  });
  await org.req('PATCH', '/api/settings/public-site', {
    body: { tagline: 'Dogs and cats of the valley, waiting for a sofa of their own.', donation_url: 'https://give.example/happytails' },
  });
  for (const [key, name] of [
    ['good_with_dogs', 'Good with dogs'],
    ['good_with_cats', 'Good with cats'],
    ['good_with_children', 'Good with children'],
  ])
    await org.req('POST', '/api/animals/behaviour-attributes', { body: { key, name, scale: 'yes_no' } });
  const day = (n: number) => new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);
  // 28 dogs and 2 cats: two list pages; six with photos.
  for (let i = 0; i < 30; i++) {
    const cat = i >= 28;
    const r = await org.req('POST', '/api/v1/animals', {
      body: {
        name: `Kennel ${i}`,
        publicName: cat ? ['Mittens', 'Shadow'][i - 28] : `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ' II' : ''}`,
        species: cat ? 'cat' : 'dog',
        breed: cat ? 'Domestic Shorthair' : BREEDS[i % BREEDS.length],
        sex: i % 2 ? 'male' : 'female',
        status: 'Available',
        intakeDate: day(60 - i),
        dateOfBirth: day(i % 5 === 0 ? 90 : 400 + i * 97),
        isPublic: true,
        notes: 'internal: kennel 4B',
      },
    });
    assert.equal(r.status, 201, r.raw);
    ids[`a${i}`] = r.body.data?.id ?? r.body.id;
  }
  const hidden = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Hidden', publicName: 'Not Yet', species: 'dog', status: 'Available', intakeDate: day(3), isPublic: false },
  });
  ids.hidden = hidden.body.data?.id ?? hidden.body.id;
  const id = (k: string) => ids[k] ?? '';
  for (let i = 0; i < 6; i++) {
    const [a, b] = COLOURS[i % COLOURS.length] ?? ['#eee', '#999'];
    await uploadPublicPhoto(org, id(`a${29 - i}`), await picture(a, b));
  }
  const star = id('a29');
  await uploadPublicPhoto(org, star, await picture('#f0e0c8', '#8a6a4a'));
  await uploadPublicPhoto(org, star, await picture('#dde8f0', '#5a7a9a'));
  await org.req('POST', `/api/animals/${star}/notes`, {
    body: {
      kind: 'adoption',
      visibility: 'shareable',
      body:
        'Shadow is a calm, curious cat who loves a sunny windowsill and a gentle chin scratch.\n\n' +
        'Shadow has lived with children and would do best as the only cat.',
    },
  });
  await org.req('PUT', `/api/animals/${star}/behaviour`, { body: { values: { good_with_children: 'yes', good_with_cats: 'no' } } });

  const page = readFileSync(join(HERE, 'embed.html'), 'utf8').replaceAll('__ORIGIN__', base);
  foreign = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`;
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});
after(async () => {
  await browser?.close();
  await new Promise((r) => foreign?.close(r));
  await t.close();
});

const phone = async (): Promise<Page> =>
  (await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })).newPage();

test('the list: filters by form, paging by links, each page its own address; an animal page; a hidden animal is a 404 page', async () => {
  const p = await phone();
  await p.goto(`${base}/`);
  assert.equal(await p.locator('h1').textContent(), 'Find your new best friend');
  await p.screenshot({ path: join(SHOTS, 'public-home-phone.png'), fullPage: true });

  await p.goto(`${base}/animals`);
  assert.match((await p.locator('[role=status]').textContent()) ?? '', /30 animals/);
  assert.equal(await p.locator('li.card').count(), 24);
  await p.screenshot({ path: join(SHOTS, 'public-list-phone.png') });
  await p.locator('a[rel=next]').click();
  await p.waitForURL(/\/animals\?page=2$/);
  assert.equal(await p.locator('li.card').count(), 6);
  assert.match((await p.locator('.pager span').textContent()) ?? '', /Page 2 of 2/);

  // On a phone the filters are folded behind one button.
  await p.locator('details.fb > summary').click();
  await p.selectOption('select[name=species]', 'cat');
  await p.locator('button[type=submit]').click();
  await p.waitForURL(/species=cat/);
  assert.equal(await p.locator('li.card').count(), 2);
  await p.locator('input[name=good_with][value=children]').check();
  await p.locator('button[type=submit]').click();
  await p.waitForURL(/good_with=children/);
  assert.deepEqual(await p.locator('.nm').allTextContents(), ['Shadow']);

  await p.locator('li.card a').first().click();
  await p.waitForURL(new RegExp(`/animals/${ids.a29}/shadow$`));
  assert.equal(await p.locator('h1').textContent(), 'Shadow');
  assert.match((await p.locator('article').textContent()) ?? '', /sunny windowsill/);
  assert.doesNotMatch(await p.content(), /Kennel|internal: kennel/);
  const img = p.locator('.gallery img').first();
  assert.ok(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), 'the photo loads');
  await p.screenshot({ path: join(SHOTS, 'public-animal-phone.png'), fullPage: true });

  const res = await p.goto(`${base}/animals/${ids.hidden}/not-yet`);
  assert.equal(res?.status(), 404);
  assert.match((await p.locator('main').textContent()) ?? '', /no longer listed/);
  await p.screenshot({ path: join(SHOTS, 'public-404-phone.png') });

  const wide = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await wide.goto(`${base}/animals?sort=name`);
  assert.equal(await wide.locator('.nm').first().textContent(), 'Bella');
  await wide.screenshot({ path: join(SHOTS, 'public-list-desktop.png') });
  await wide.context().close();
  await p.context().close();
});

test('the widget on a foreign page: one script tag, a Shadow DOM the page styles cannot reach; the iframe alternative', async () => {
  const p = await (await browser.newContext({ viewport: { width: 1000, height: 1400 } })).newPage();
  await p.goto(foreignUrl);
  const cards = p.locator('[data-ark-widget] li');
  await cards.first().waitFor();
  assert.equal(await cards.count(), 6);
  // The host page's hostile rule (img border red) does not reach into the widget.
  const border = await p
    .locator('[data-ark-widget] img')
    .first()
    .evaluate((el) => getComputedStyle(el).borderTopWidth);
  assert.equal(border, '0px');
  assert.match((await cards.first().locator('a').getAttribute('href')) ?? '', new RegExp(`^${base}/animals/`));
  await p.locator('[data-ark-widget] select[name=species]').selectOption('cat');
  await p.waitForFunction(() => document.querySelector('[data-ark-widget]')?.shadowRoot?.querySelectorAll('li').length === 2);
  const frame = p.frameLocator('iframe');
  await frame.locator('li.card').first().waitFor();
  assert.equal(await frame.locator('li.card').count(), 24);
  await p.screenshot({ path: join(SHOTS, 'public-widget-foreign-page.png'), fullPage: true });
  await p.context().close();
});

test('the widget shows hostile text as text: no markup from any field runs on the embedding page', async () => {
  // An animal with a public photo whose public name and breed try to break out of an attribute and out of text.
  const attr = 'Rex" onload="window.__arkPwned=1;alert(document.domain)" x="';
  const tag = '<img src=x onerror="window.__arkPwned=2;alert(1)"><script>window.__arkPwned=3</script>';
  const r = await org.req('POST', '/api/v1/animals', {
    body: {
      name: 'Kennel hostile',
      publicName: attr,
      species: 'dog',
      breed: tag,
      status: 'Available',
      intakeDate: new Date().toISOString().slice(0, 10),
      isPublic: true,
    },
  });
  assert.equal(r.status, 201, r.raw);
  const id = r.body.data?.id ?? r.body.id;
  await uploadPublicPhoto(org, id, await picture('#f4d6b0', '#c98b55'));

  const p = await (await browser.newContext({ viewport: { width: 1000, height: 1400 } })).newPage();
  const dialogs: string[] = [];
  p.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // The fields the server makes itself (species list, locations, links, the photo's address) are hostile too:
  // the widget must hold even against an answer it does not expect.
  await p.route('**/api/public/animals?*', async (route) => {
    // Ark's own answer (read in-process: the *.localhost address resolves in Chromium only), then changed.
    const res = await org.req('GET', `/api/public/animals${new URL(route.request().url()).search}`, { key: null });
    const d = JSON.parse(res.raw.replaceAll(`http://${org.host}/`, `${base}/`));
    d.species = [...d.species, '"><img src=x onerror="window.__arkPwned=4">'];
    d.locations = [
      { id: '"><img src=x onerror="window.__arkPwned=5">', name: '<img src=x onerror="window.__arkPwned=6">' },
      { id: 'loc_2', name: '</option><script>window.__arkPwned=7</script>' },
    ];
    d.results[1] = { ...d.results[1], url: 'javascript:window.__arkPwned=8', age: '<b onmouseover="window.__arkPwned=9">x</b>' };
    d.results[2] = { ...d.results[2], photo: { url: 'javascript:window.__arkPwned=10', width: '1" onload="x', height: 2 } };
    d.total = '<img src=x onerror="window.__arkPwned=11">';
    await route.fulfill({ json: d, headers: { 'access-control-allow-origin': '*' } });
  });
  await p.goto(foreignUrl);
  const cards = p.locator('[data-ark-widget] li');
  await cards.first().waitFor();
  await p
    .locator('[data-ark-widget] img')
    .first()
    .evaluate((img: HTMLImageElement) => img.decode().catch(() => undefined));
  await p
    .locator('[data-ark-widget] li')
    .nth(1)
    .locator('a')
    .click({ modifiers: ['Shift'] })
    .catch(() => undefined);
  await p.waitForTimeout(300);
  assert.equal(await p.evaluate(() => (window as unknown as { __arkPwned?: number }).__arkPwned), undefined, 'no script ran');
  assert.deepEqual(dialogs, []);
  // The text shows literally, the name is the picture's alt text as it is, and nothing became an element.
  const first = cards.first();
  assert.equal(await first.locator('.n').textContent(), attr);
  assert.ok((await first.locator('.m').textContent())?.startsWith(`${tag} · `));
  assert.equal(await first.locator('img').getAttribute('alt'), attr);
  assert.equal(await first.locator('img').getAttribute('onload'), null);
  const shadow = p.locator('[data-ark-widget]');
  assert.equal(await shadow.evaluate((h) => h.shadowRoot?.querySelectorAll('script, b, [onerror], [onload]').length), 0);
  assert.equal(await cards.nth(1).locator('a').getAttribute('href'), null, 'a javascript: link is not used');
  assert.equal(await cards.nth(2).locator('img').count(), 0, 'a javascript: picture is not used');
  assert.ok((await p.locator('[data-ark-widget] select[name=species] option').allTextContents()).some((s) => s.includes('<img')));
  assert.deepEqual(await p.locator('[data-ark-widget] select[name=location_id] option').allTextContents(), [
    'Any location',
    '<img src=x onerror="window.__arkPwned=6">',
    '</option><script>window.__arkPwned=7</script>',
  ]);
  assert.match((await p.locator('[data-ark-widget] [role=status]').textContent()) ?? '', /^<img src=x/);
  await p.context().close();
});
