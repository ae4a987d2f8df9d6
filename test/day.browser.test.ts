// A shelter's day in a real Chromium (test/browser.ts), walked as one staff member would: a stray taken in on the intake
// screen (a chip another rescue publishes warns without blocking, the finder added in place), the animal's page edited
// in place, a walk-in adopter added from People (the duplicate warning first), an adoption from the public site's apply
// button to the finalized adoption with the fee paid, the welcome email sent with no email provider set up, a foster
// placement ended, the month's Shelter Animals Count report, and the pages a phone shows at 375 px.
// The test makes no HTTP call of its own except to set the organization up and to read back what the app wrote.
// Every page visited goes through axe; the clicks of each journey are counted and printed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page, Response } from 'playwright-core';
import { makeOrg, testApp, type TestApp, type TestOrg } from './harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from './browser.ts';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  // No ARK_SMTP_PROVIDERS: sending email is not set up.
  bench = await startBrowser(() => testApp({ smtpProviders: undefined }));
  t = bench.t;
});
after(async () => {
  await bench?.close();
  await t?.close();
});

async function maker(org: TestOrg) {
  return async (method: string, url: string, body: Record<string, unknown>) => {
    const r = await org.req(method, url, { body });
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
}
const read = async (org: TestOrg, url: string) => {
  const r = await org.req('GET', url);
  assert.equal(r.status, 200, `GET ${url}: ${r.raw}`);
  return r.body;
};

/** Clicks, counted per journey. */
function clicker() {
  const counts: Record<string, number> = {};
  let journey = '';
  return {
    start(name: string) {
      journey = name;
      counts[name] = 0;
    },
    async click(l: Locator, opts?: { force?: boolean }) {
      if (journey) counts[journey] = (counts[journey] ?? 0) + 1;
      await l.click(opts);
    },
    stop() {
      journey = '';
    },
    counts,
  };
}

/** What a person reads on the page holds no raw value: no true/false, internal id or UTC ISO moment. */
async function readable(page: Page, what: string) {
  const text = await page.locator('main').innerText();
  const raw = text.match(/\b(true|false)\b|\b(ani|per|apa|adp|don|msg|con|loc|hou|fha|fas)_[A-Za-z0-9]{8,}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  assert.equal(raw, null, `${what} shows a raw value: ${raw?.[0]}`);
}
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Today (UTC, the organization's zone here) as the app writes a day with its weekday: "Fri 27 Nov 2026". */
function todayWithWeekday() {
  const d = new Date();
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Picks an option of a Mantine Select (a click to open, a click on the option). */
async function pick(page: Page, c: ReturnType<typeof clicker>, box: Locator, option: string | RegExp) {
  await c.click(box);
  await c.click(page.getByRole('option', { name: option }).first());
}

const DAY =
  "a shelter's day: a stray taken in, its page, a walk-in adopter, a public application adopted, an email, a foster ending, SAC, a phone";
test(DAY, async () => {
  const org = await makeOrg(t, { timeZone: 'UTC', country: 'US', currency: 'USD' });
  const other = await makeOrg(t, { timeZone: 'UTC', country: 'US' });
  const made = await maker(org);
  const base = bench.base(org);
  const c = clicker();
  const tag = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');

  // Set-up: another rescue publishes the chip the stray carries; a kennel; an existing person the walk-in looks like;
  // a fee schedule, a contract template, the public adoption form and the welcome email template; a foster placement.
  const chip = `985112${tag}${String(Math.floor(Math.random() * 1e3)).padStart(3, '0')}`;
  await (await maker(other))('POST', '/api/v1/animals', {
    name: 'Pepper',
    species: 'dog',
    status: 'Available',
    intakeDate: '2026-01-05',
    microchipNumber: chip,
  });
  const main = await made('POST', '/api/animals/locations', { name: 'Main kennels', type: 'shelter' });
  const k1 = await made('POST', '/api/animals/housing-units', { location_id: main.id, name: 'Kennel 1', type: 'kennel', capacity: 2 });
  const lookalike = await made('POST', '/api/v1/people', { firstName: 'Robin', lastName: 'Ashby', email: 'robin.ashby@example.org' });
  await made('POST', '/api/animals/fee-schedules', { name: 'This year', rules: [{ name: 'Any animal', amount_minor: 15000 }] });
  await made('POST', '/api/animals/contract-templates', {
    name: 'Standard',
    title: 'Adoption contract for {{animal_name}}',
    body: 'I, {{full_name}}, adopt {{animal_name}} from {{org_name}} for {{fee}}.',
  });
  await made('POST', '/api/forms', {
    name: 'Adopt',
    slug: 'adopt',
    purpose: 'adoption_application',
    status: 'published',
    min_fill_seconds: 0,
    fields: [
      { key: 'first_name', label: 'First name', type: 'text', required: true },
      { key: 'last_name', label: 'Last name', type: 'text', required: true },
      { key: 'email', label: 'Email', type: 'email', required: true },
      { key: 'home', label: 'Tell us about your home', type: 'textarea' },
    ],
  });
  await made('POST', '/api/communications/templates', {
    key: 'adoption.welcome',
    name: 'Adoption welcome',
    status: 'active',
    subject_template: 'Welcome home, {{animal_name}}',
    body_template_blocks: [
      { type: 'p', runs: [{ text: 'Dear {{first_name}}, thank you for adopting {{animal_name}} from {{org_name}}.' }] },
    ],
  });
  const fay = await made('POST', '/api/v1/people', { firstName: 'Fay', lastName: 'Okafor', email: 'fay@example.org' });
  const fayHome = (await made('POST', '/api/animals/foster-homes', { person_id: fay.id, capacity: 2 })).foster_home;
  const milo = await made('POST', '/api/v1/animals', { name: 'Milo', species: 'cat', status: 'Available', intakeDate: '2026-01-05' });
  const placement = await made('POST', `/api/animals/foster-homes/${fayHome.id}/assignments`, { animal_id: milo.id });
  await made('POST', `/api/animals/foster-assignments/${placement.id}/start`, {});

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  await page.goto(`${base}/app/`);
  // The first page of a fresh server compiles its schemas: a longer wait than the default.
  await page.getByRole('heading', { level: 2 }).first().waitFor({ timeout: 90_000 });
  await axe(page, 'the dashboard');

  // 1. Intake of a stray on the intake screen.
  c.start('intake');
  await c.click(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Take in an animal' }));
  const form = page.getByRole('form', { name: 'Intake' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Juniper');
  await form.getByLabel('Breed').fill('Labrador mix');
  await page.keyboard.press('Escape');
  await c.click(form.locator('label', { hasText: /^Female$/ }));
  await form.getByRole('textbox', { name: 'Colour' }).fill('black and tan');
  await form.getByRole('textbox', { name: 'Years (about)' }).fill('2');
  await form.getByRole('textbox', { name: 'Microchip number' }).fill(chip);
  // The registry warns before saving, without blocking.
  const warn = form.getByTestId('chip-check');
  await warn.getByText('This chip is already on file').waitFor();
  await warn.getByText(new RegExp(`Test Rescue ${other.slug}`)).waitFor();
  await warn.getByText('You can still take the animal in: the intake is saved with this chip.').waitFor();
  await pick(page, c, form.getByRole('combobox', { name: 'Kennel' }), /^Kennel 1/);
  await pick(page, c, form.getByRole('combobox', { name: 'Intake type' }), /^Stray$/);
  await form.getByText('Counted as: Stray').waitFor();
  // The finder, added in place.
  await c.click(form.getByRole('button', { name: 'New person' }));
  const finderCard = form.getByLabel('New person');
  await finderCard.getByRole('textbox', { name: 'First name' }).fill('Dana');
  await finderCard.getByRole('textbox', { name: 'Last name' }).fill(`Finch${tag}`);
  await finderCard.getByRole('textbox', { name: 'Email' }).fill(`dana.finch.${tag}@example.org`);
  await axe(page, 'the intake screen with the chip warning and a new finder');
  await c.click(finderCard.getByRole('button', { name: 'Add the person' }));
  await form.getByText(`Brought in by Dana Finch${tag}`).waitFor();
  await form.getByRole('textbox', { name: 'Where it was found' }).fill('Corner of Elm and 4th');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'intake', 'app-day');
  await c.click(form.getByRole('button', { name: 'Take in the animal' }));
  await page.waitForURL(/\/app\/animals\/[^/]+$/);
  c.stop();
  const juniperId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);
  const juniper = await read(org, `/api/v1/animals/${juniperId}`);
  assert.deepEqual(
    [juniper.name, juniper.species, juniper.breed, juniper.sex, juniper.microchipNumber, juniper.locationId],
    ['Juniper', 'dog', 'Labrador mix', 'female', chip, k1.id],
  );
  const finder = (await read(org, `/api/v1/people?q=${encodeURIComponent(`dana.finch.${tag}@example.org`)}`)).data;
  assert.equal(finder.length, 1, 'the finder is on file');
  const firstStays = (await read(org, `/api/animals/${juniperId}/stays`)).results;
  assert.equal(firstStays.length, 1);
  assert.deepEqual(
    [firstStays[0].intake.type, firstStays[0].intake.source_person_id, firstStays[0].intake.found_at],
    ['stray', finder[0].id, 'Corner of Elm and 4th'],
  );

  // 2. The animal's page: public name, 'On the public website', sex and breed edited in place.
  const profile = page.getByRole('table', { name: 'Profile' });
  await profile.waitFor();
  await axe(page, 'the animal page');
  const edit = async (label: string, fill: (f: Locator) => Promise<void>) => {
    await profile.getByRole('button', { name: `Edit ${label.toLowerCase()}` }).click();
    const f = profile.getByRole('form', { name: `Change ${label.toLowerCase()}` });
    await fill(f);
    await f.getByRole('button', { name: 'Save' }).click();
    await f.waitFor({ state: 'detached' });
  };
  await edit('Public name', (f) => f.getByRole('textbox', { name: 'Public name' }).fill('June'));
  await edit('On the public website', async (f) => {
    await f.getByRole('switch', { name: 'Listed on the public website' }).click({ force: true });
    await axe(page, 'a field of the animal page being edited');
  });
  await edit('Sex', async (f) => {
    await f.getByRole('combobox', { name: 'Sex' }).click();
    await page.getByRole('option', { name: 'Male', exact: true }).click();
  });
  await edit('Breed', async (f) => {
    await f.getByLabel('Breed').fill('Labrador retriever');
    await page.keyboard.press('Escape');
  });
  const blurb = 'A gentle black-and-tan dog who loves a long walk.\n\nGood with older children.';
  await edit('Public description', (f) => f.getByRole('textbox', { name: 'Public description' }).fill(blurb));
  await profile.getByText('A gentle black-and-tan dog who loves a long walk.', { exact: false }).waitFor();
  await profile.getByText('Yes, listed').waitFor();
  await page.getByText('Shown to the public as June').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'animal', 'app-day');
  await readable(page, 'the animal page');
  const edited = await read(org, `/api/v1/animals/${juniperId}`);
  assert.deepEqual([edited.publicName, edited.isPublic, edited.sex, edited.breed], ['June', true, 'male', 'Labrador retriever']);
  assert.equal((await read(org, `/api/animals/${juniperId}/details`)).public_description, blurb);

  // 3. A walk-in adopter added from People: the duplicate warning shows first (same name as someone on file).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
  await page.getByRole('button', { name: 'Add a person' }).click();
  const addPerson = page.getByRole('dialog', { name: 'Add a person' });
  await addPerson.getByRole('textbox', { name: 'First name' }).fill('Robin');
  await addPerson.getByRole('textbox', { name: 'Last name' }).fill('Ashby');
  await addPerson.getByRole('textbox', { name: 'Email' }).fill(`robin.${tag}@example.org`);
  const dupe = addPerson.getByRole('status').filter({ hasText: 'This may be someone already on file' });
  await dupe.getByText(/a similar name/).waitFor();
  await axe(page, 'the add-a-person form with the duplicate warning');
  await addPerson.getByRole('button', { name: 'Add the person' }).click();
  await page.waitForURL(/\/app\/people\/[^/]+$/);
  const robinId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);
  assert.notEqual(robinId, lookalike.id);
  await page
    .getByRole('heading', { name: /Robin Ashby/ })
    .first()
    .waitFor();
  await axe(page, "the walk-in adopter's page");
  await readable(page, "the walk-in adopter's page");
  const robin = await read(org, `/api/v1/people/${robinId}`);
  assert.deepEqual([robin.firstName, robin.lastName, robin.email], ['Robin', 'Ashby', `robin.${tag}@example.org`]);

  // 4. The adoption: Robin applies on the public site (an anonymous visitor, another browser context).
  const visitor = await bench.browser.newContext({ reducedMotion: 'reduce' });
  const pub = await visitor.newPage();
  await pub.goto(`${base}/animals/${juniperId}/june`);
  await pub.getByRole('heading', { name: 'June' }).first().waitFor();
  await pub.getByText('A gentle black-and-tan dog who loves a long walk.').waitFor();
  await pub.getByText('Good with older children.').waitFor();
  await axe(pub, 'the public animal page');
  await pub.getByRole('link', { name: 'How to apply' }).click();
  await pub.getByText('Applying for').waitFor();
  await axe(pub, 'the public adoption form');
  await pub.getByLabel('First name').fill('Robin');
  await pub.getByLabel('Last name').fill('Ashby');
  await pub.getByLabel('Email').fill(`robin.${tag}@example.org`);
  await pub.getByLabel('Tell us about your home').fill('A house with a fenced garden');
  await pub.getByRole('button', { name: 'Send' }).click();
  await pub.getByRole('status').filter({ hasText: /./ }).waitFor();
  await visitor.close();
  const applied = (await read(org, `/api/animals/adoption-applications?animal_id=${juniperId}`)).results;
  assert.equal(applied.length, 1, 'the public application is linked to the animal');
  assert.equal(applied[0].person_id, robinId, 'and to the walk-in adopter on file (same email)');

  // Staff: the application in Adoptions, the contract sent and signed, approved, finalized with the contract chosen.
  c.start('adoption');
  await c.click(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Adoptions' }));
  const apps = page.getByRole('table', { name: 'Adoption applications' });
  await apps.getByRole('link', { name: 'Juniper' }).waitFor();
  await axe(page, 'the applications list');
  await c.click(page.getByRole('button', { name: 'Open the application from Robin Ashby' }));
  const card = page.getByRole('region', { name: 'Application from Robin Ashby' });
  await card.getByRole('table', { name: 'Form answers' }).getByText('A house with a fenced garden').waitFor();
  await pick(page, c, card.getByRole('combobox', { name: 'Contract template' }), 'Standard (v1)');
  await c.click(card.getByRole('button', { name: 'Send the contract' }));
  await card.getByText('Signing link (shown once)').waitFor();
  // No email provider: the contract says its link was not emailed.
  await card.getByRole('table', { name: 'Contracts' }).getByText('not emailed: the link was handed over').waitFor();
  const signing = new URL((await card.locator('pre').textContent()) ?? '');
  // The adopter signs on the public signing page (not counted: the adopter's clicks).
  const signer = await bench.browser.newContext({ reducedMotion: 'reduce' });
  const sp = await signer.newPage();
  await sp.goto(`${base}${signing.pathname}`);
  await sp.getByLabel('Type your full name to sign').fill('Robin Ashby');
  await axe(sp, 'the public signing page');
  await sp.getByLabel('I have read this contract').check();
  await sp.getByRole('button', { name: 'Sign' }).click();
  await sp.waitForLoadState();
  await signer.close();
  await c.click(card.getByRole('button', { name: 'Approve' }));
  await card.getByText('Decision: approved', { exact: false }).waitFor();
  await card.getByRole('table', { name: 'Contracts' }).getByText('signed', { exact: true }).waitFor();
  await axe(page, 'the application, approved, with its signed contract');
  // The fee, paid at the desk before the paperwork: a ledger entry kept with the application.
  await card.getByRole('group', { name: 'Adoption fee' }).getByText('Adoption fee $150.00 · paid $0.00').waitFor();
  await c.click(card.getByRole('button', { name: 'Record the fee paid for Juniper' }));
  const pay = page.getByRole('dialog', { name: 'Fee paid for Juniper' });
  await pay.getByRole('textbox', { name: 'Amount paid' }).fill('150');
  await axe(page, 'the fee-paid form');
  await c.click(pay.getByRole('button', { name: /Record/ }));
  await pay.waitFor({ state: 'detached' });
  await card.getByRole('group', { name: 'Adoption fee' }).getByText('Adoption fee $150.00 · paid $150.00 (paid in full)').waitFor();
  assert.equal((await read(org, `/api/animals/adoption-applications/${applied[0].id}`)).fee_paid_minor, 15000);
  await readable(page, 'the application');
  await c.click(card.getByRole('button', { name: 'Finalize the adoption…' }));
  const fin = page.getByRole('dialog', { name: 'Finalize the adoption' });
  await fin.getByText('Juniper: $150.00 (Any animal)').waitFor();
  await fin.getByText(/Paid with the application: \$150\.00/).waitFor();
  // The signed contract is chosen already.
  assert.equal(
    await fin.getByRole('combobox', { name: 'Signed contract' }).inputValue(),
    'Adoption contract for Juniper, signed by Robin Ashby',
  );
  await axe(page, 'the finalize form');
  await shot(page, 'adoption', 'app-day');
  await c.click(fin.getByRole('button', { name: 'Finalize the adoption' }));
  await card.getByText('Finalized: see the adoptions tab.').waitFor();
  // The payment made with the application now counts on the adoption.
  await c.click(page.getByRole('tab', { name: 'Adoptions' }));
  const adoptedList = page.getByRole('table', { name: 'Adoptions' });
  await adoptedList.getByText('paid in full').waitFor();
  c.stop();
  await axe(page, 'the adoptions list');
  await readable(page, 'the adoptions list');
  const adoptions = (await read(org, `/api/animals/adoptions?animal_id=${juniperId}`)).results;
  assert.deepEqual(
    adoptions.map((a: { status: string; fee_minor: number; fee_paid_minor: number; person_id: string }) => [
      a.status,
      a.fee_minor,
      a.fee_paid_minor,
      a.person_id,
    ]),
    [['adopted', 15000, 15000, robinId]],
  );
  assert.ok(adoptions[0].contract_id, 'the signed contract is linked');
  assert.equal(adoptions[0].donation_ids.length, 1);
  const ledger = await read(org, `/api/v1/donations/${adoptions[0].donation_ids[0]}`);
  assert.deepEqual([ledger.amount, ledger.donorId, ledger.animalId], [150, robinId, juniperId]);
  const decided = await read(org, `/api/animals/adoption-applications/${applied[0].id}`);
  assert.equal(decided.decision, 'adopted');
  const afterStays = (await read(org, `/api/animals/${juniperId}/stays`)).results;
  assert.equal(afterStays[0].outcome?.type, 'adoption', "the animal's outcome is adoption");

  // 5. The welcome email about the adopted animal, with no email provider: logged as not sent.
  await page.goto(`${base}/app/people/${robinId}`);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'Adoption welcome' }).click();
  const picker = page.getByRole('combobox', { name: 'About the animal (optional)' });
  await picker.click();
  await picker.fill('junip');
  await page.getByRole('option', { name: /^Juniper \(dog, adopted/ }).click();
  const preview = page.getByRole('region', { name: 'Message preview' });
  await preview.getByText('Welcome home, Juniper').waitFor();
  assert.equal(await preview.getByText(/ani_/).count(), 0, 'no internal id in what the adopter reads');
  await axe(page, 'the message being written');
  await page.getByRole('button', { name: 'Send the message' }).click();
  await page
    .getByRole('alert')
    .getByText(/^Not sent: no email provider is set up/)
    .waitFor();
  await page.getByRole('table', { name: 'Messages' }).getByText('Welcome home, Juniper').waitFor();
  await axe(page, "the adopter's messages after a send with no provider");
  const logged = (await read(org, `/api/communications/messages?person_id=${robinId}`)).results;
  assert.deepEqual(
    logged.map((m: { status: string; payload_metadata: { reason?: string }; subject: string }) => [
      m.status,
      m.payload_metadata.reason,
      m.subject,
    ]),
    [['failed', 'no_provider', 'Welcome home, Juniper']],
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await page.getByRole('tab', { name: 'Message log' }).click();
  const row = page.getByRole('table', { name: 'Message log' }).getByRole('row').filter({ hasText: 'Welcome home, Juniper' });
  await row.getByText('Not sent: no email provider is set up').waitFor();
  assert.doesNotMatch(await page.locator('main').innerText(), /ani_/);
  await axe(page, 'the message log');

  // 6. Foster: Milo's placement with Fay ended with its day, destination and reason, after a confirmation.
  c.start('foster end');
  await c.click(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Foster homes' }));
  await c.click(page.getByRole('button', { name: 'Placements with Fay Okafor' }));
  await c.click(page.getByRole('button', { name: 'End fostering of Milo' }));
  const end = page.getByRole('dialog', { name: 'End fostering of Milo' });
  const today = new Date().toISOString().slice(0, 10);
  assert.equal(await end.getByLabel('Ended on').inputValue(), today);
  await c.click(end.getByRole('radio', { name: 'Back to the shelter' }), { force: true });
  await pick(page, c, end.getByRole('combobox', { name: 'Kennel or unit' }), /^Kennel 1/);
  await end.getByRole('textbox', { name: 'Notes' }).fill('Fay is away for a month');
  await axe(page, 'the end-a-placement form');
  await c.click(end.getByRole('button', { name: 'End the placement…' }));
  await end.getByText(/Milo leaves Fay Okafor on .* and goes back to Kennel 1/).waitFor();
  await axe(page, 'the end-a-placement confirmation');
  await c.click(end.getByRole('button', { name: 'Yes, end the placement' }));
  await end.waitFor({ state: 'detached' });
  c.stop();
  const ended = await read(org, `/api/animals/foster-assignments/${placement.id}`);
  assert.deepEqual(
    [ended.status, ended.end_reason, ended.ended_on, ended.notes],
    ['completed', 'returned_to_shelter', today, 'Fay is away for a month'],
  );
  assert.equal((await read(org, `/api/v1/animals/${milo.id}`)).locationId, k1.id);
  // Fay's page: her home and the placement in words.
  await page.goto(`${base}/app/people/${fay.id}`);
  await page.getByRole('tab', { name: 'Fostering' }).click();
  const placements = page.getByRole('table', { name: 'Placements' });
  await placements.getByText('ended', { exact: true }).waitFor();
  await page.getByText(/Foster home · taking animals · 0 of 2 places filled/).waitFor();
  assert.equal(await placements.getByText(/^(active|completed)$/).count(), 0, 'no raw placement state');
  await axe(page, "the foster's placements");
  await readable(page, "the foster's page");
  await shot(page, 'person-fostering', 'app-day');
  // Milo's page: the same placement, and the animal page reads as words.
  await page.goto(`${base}/app/animals/${milo.id}`);
  await page.getByRole('tab', { name: 'Fostering' }).click();
  await page.getByRole('table', { name: 'Foster placements' }).getByText('returned to shelter').waitFor();
  await readable(page, "Milo's fostering");

  // The week views name their days as the rest of the app does ("Fri 27 Nov 2026").
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks and calendar' }).click();
  await page.locator('label', { hasText: 'Calendar week' }).click();
  await page.getByRole('region', { name: `${todayWithWeekday()} (today)` }).waitFor();
  await axe(page, 'the calendar week');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shifts' }).click();
  await page.getByRole('region', { name: todayWithWeekday() }).waitFor();
  await axe(page, 'the shifts week');
  await shot(page, 'shifts-week', 'app-day');

  // 7. The month's Shelter Animals Count matrix: the stray intake and the adoption, on the Reports screen and in the API.
  const month = today.slice(0, 7);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('navigation', { name: 'Report catalogue' }).getByRole('button', { name: 'Shelter Animals Count matrix' }).click();
  await page.getByRole('button', { name: 'Run the report' }).click();
  const matrix = page.getByRole('table', { name: 'Shelter Animals Count matrix' });
  await matrix.getByRole('row', { name: /^Total intakes/ }).waitFor();
  await axe(page, 'the SAC matrix');
  const sac = await read(org, `/api/reports/sac?month=${month}&species_group=dogs`);
  const byType = (rows: { type: string; counts: Record<string, number> }[]) => Object.fromEntries(rows.map((r) => [r.type, r.counts]));
  const one = { adult: 1, up_to_5_months: 0, unknown: 0, total: 1 };
  assert.deepEqual(byType(sac.intakes).stray, one, 'the stray (about 2 years old) counted as an adult stray intake');
  assert.deepEqual(byType(sac.outcomes).adoption, one, 'the adoption counted as an adult adoption outcome');

  // 8. A phone at 375 px: no page scrolls sideways.
  const phone = await openPage(bench, { org, session, width: 375, height: 740, timezoneId: 'UTC' });
  // The cold dashboard (a new browser context: nothing cached): every answer's bytes over the wire (headers and body
  // as sent) and its body as the page reads it, until the network is idle.
  const cold: Promise<[number, number]>[] = [];
  const count = (r: Response) =>
    void cold.push(
      Promise.all([r.request().sizes(), r.body().catch(() => Buffer.alloc(0))]).then(([s, b]) => [
        s.responseHeadersSize + s.responseBodySize,
        b.length,
      ]),
    );
  phone.page.on('response', count);
  for (const p of ['/', '/animals', `/animals/${juniperId}`, '/intake', '/adoptions']) {
    await phone.page.goto(`${base}/app${p === '/' ? '' : p}`);
    await phone.page.getByRole('heading', { level: 2 }).first().waitFor();
    await phone.page.waitForLoadState('networkidle');
    if (p === '/') {
      phone.page.off('response', count);
      const sizes = await Promise.all(cold);
      const [wire, bodies] = sizes.reduce(([w, b], [sw, sb]) => [w + sw, b + sb], [0, 0]);
      console.log(`# cold dashboard: ${sizes.length} answers, ${wire} bytes over the wire, ${bodies} bytes of bodies uncompressed`);
    }
    const m = await phone.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    assert.ok(m.scroll <= m.inner, `${p} at 375 px scrolls sideways: ${m.scroll} > ${m.inner}`);
    await axe(phone.page, `${p} at 375 px`);
    if (p === `/animals/${juniperId}`) await shot(phone.page, 'phone-animal', 'app-day');
    if (p === '/intake') await shot(phone.page, 'phone-intake', 'app-day');
  }
  assert.deepEqual(phone.errors, []);
  await phone.context.close();

  console.log(
    `# clicks: intake ${c.counts.intake}, adoption from the application to the fee paid ${c.counts.adoption}, ` +
      `foster placement end ${c.counts['foster end']}`,
  );
  assert.deepEqual(errors, []);
  await context.close();
});
