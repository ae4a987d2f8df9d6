// The staff app's registry and integration settings in a real Chromium (test/browser.ts): the Registry page
// (microchip lookup, our flags, checking a person against another rescue's flag, publishing), the registry
// check on a person page, Settings → Webhooks (with a real receiver on loopback) and Settings → Public site.
// Records are made through the API, what the app writes is checked through the API, every page with axe;
// screenshots: app-registry.png, app-webhooks.png, app-settings-public-site.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { deliverDue } from '../integrations/delivery.ts';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  // http on loopback for the webhook receiver below.
  bench = await startBrowser(() => testApp({ webhooksAllowInsecure: true }));
  t = bench.t;
});
after(async () => {
  await bench?.close();
  await t?.close();
});

const made = async (org: TestOrg, method: string, url: string, body: Record<string, unknown>) => {
  const r = await org.req(method, url, { body });
  assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
  return r.body;
};

test('the registry: a chip looked up, a flag raised, disputed and withdrawn, another rescue’s flag reviewed and marked', async () => {
  const ours = await makeOrg(t, { timeZone: 'UTC' });
  const other = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(ours);
  // Chip numbers of this test alone: every test file shares the store, and the lookup spans organizations.
  const nine = () => String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  const chip = `985112${nine()}`;
  const unknown = `985112${nine()}`;
  await made(ours, 'POST', '/api/v1/animals', {
    name: 'Biscuit',
    species: 'dog',
    status: 'Available',
    intakeDate: '2026-01-05',
    microchipNumber: chip,
  });
  const pat = await made(ours, 'POST', '/api/v1/people', { firstName: 'Pat', lastName: 'Lindqvist', email: 'pat@example.org' });
  const sam = await made(ours, 'POST', '/api/v1/people', { firstName: 'Sam', lastName: 'Rivers', email: 'sam@example.org' });
  // The other rescue knows Pat by the same email and flagged them.
  const theirPat = await made(other, 'POST', '/api/v1/people', { firstName: 'P.', lastName: 'Lindqvist', email: 'PAT@example.org' });
  const theirs = await made(other, 'POST', '/api/registry/flags', {
    person_id: theirPat.id,
    category: 'do_not_adopt',
    evidence: 'SECRET-EVIDENCE',
  });

  const { session } = await ours.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org: ours, session, timezoneId: 'UTC' });
  await page.goto(`${base}/app/`);
  // The first page of a fresh server compiles its schemas: a longer wait than the default.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Registry' }).click({ timeout: 90_000 });
  await page.getByRole('heading', { name: 'Registry' }).waitFor();

  // Microchip lookup: found (typed with dashes), not found, and a number with nothing in it refused at the field.
  const number = page.getByRole('textbox', { name: 'Microchip number' });
  await number.fill(chip.replace(/(\d{3})(?=\d)/g, '$1-'));
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByText(`Found: ${chip} is recorded by one organization`).waitFor();
  const found = page.getByRole('table', { name: 'Organizations that recorded the chip' });
  await found.getByRole('row', { name: new RegExp(`Test Rescue ${ours.slug}.*dog In care`) }).waitFor();
  await page.getByText(/ISO 15-digit/).waitFor();
  await axe(page, 'the microchip lookup, found');
  await number.fill(unknown);
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByText(`Not found: no organization publishes ${unknown}`).waitFor();
  await axe(page, 'the microchip lookup, not found');
  await number.fill('--');
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.locator('input[aria-invalid="true"]').waitFor();
  assert.equal(await number.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the number');

  // Our flags: none yet; a flag raised about Sam.
  await page.getByRole('tab', { name: 'Our flags' }).click();
  await page.getByText('No flags here. Raise one').waitFor();
  await page.getByRole('button', { name: 'Raise a flag' }).click();
  const raise = page.getByRole('dialog', { name: 'Raise a flag' });
  await raise.getByRole('combobox', { name: 'Person' }).fill('Sam');
  await page.getByRole('option', { name: /Sam Rivers/ }).click();
  await raise.getByRole('combobox', { name: 'Reason' }).click();
  await page.getByRole('option', { name: 'Fraudulent payment' }).click();
  await raise.getByRole('textbox', { name: 'Evidence' }).fill('Two chargebacks on adoption fees, March 2026.');
  await axe(page, 'the raise-a-flag form');
  await raise.getByRole('button', { name: 'Raise the flag' }).click();
  const flags = page.getByRole('table', { name: 'Our flags' });
  await flags.getByRole('link', { name: 'Sam Rivers' }).waitFor();
  let own = (await ours.req('GET', '/api/registry/flags')).body.results;
  assert.deepEqual(
    own.map((f: any) => [f.person_id, f.category, f.evidence, f.status, f.matched_by]),
    [[sam.id, 'fraudulent_payment', 'Two chargebacks on adoption fees, March 2026.', 'active', ['email']]],
  );
  const samFlag = own[0].id as string;

  // Opened: a dispute recorded and withdrawn by the administrator, a mark, the history.
  await flags.getByRole('button', { name: /^Open the flag Fraudulent payment/ }).click();
  const detail = page.getByRole('region', { name: 'The flag' });
  await detail.getByText('matched by email').waitFor();
  await detail.getByRole('textbox', { name: 'What the person says' }).fill('Sam says the bank reversed the payments by mistake.');
  await detail.getByRole('button', { name: 'Record the dispute' }).click();
  await detail.getByRole('table', { name: 'Disputes' }).getByText('open', { exact: true }).waitFor();
  await detail.getByRole('textbox', { name: 'Why (recorded with the decision)' }).fill('The bank confirmed the chargebacks.');
  await detail.getByRole('button', { name: 'Withdraw the dispute (keep the flag)' }).click();
  await detail
    .getByRole('table', { name: 'Disputes' })
    .getByText(/The bank confirmed the chargebacks/)
    .waitFor();
  await detail.getByRole('textbox', { name: 'New mark' }).fill('called the bank');
  await detail.getByRole('button', { name: 'Add the mark' }).click();
  await detail.getByText('called the bank').waitFor();
  const history = detail.getByRole('table', { name: 'History' });
  await history.getByRole('cell', { name: 'dispute withdrawn' }).waitFor();
  for (const action of ['raised', 'dispute opened']) await history.getByRole('cell', { name: action, exact: true }).waitFor();
  await axe(page, 'a flag opened');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'registry');
  own = (await ours.req('GET', `/api/registry/flags/${samFlag}`)).body;
  assert.deepEqual(
    own.disputes.map((d: any) => [d.status, d.note, d.resolution_note]),
    [['withdrawn', 'Sam says the bank reversed the payments by mistake.', 'The bank confirmed the chargebacks.']],
  );
  assert.deepEqual(
    own.marks.map((m: any) => m.label),
    ['called the bank'],
  );

  // Withdrawn after a confirmation: it leaves the active list and matches nowhere.
  await detail.getByRole('button', { name: 'Withdraw the flag…' }).click();
  await page.getByRole('dialog', { name: 'Withdraw the flag?' }).getByRole('button', { name: 'Withdraw the flag' }).click();
  await page.getByText('No flags here. Raise one').waitFor();
  assert.equal((await ours.req('GET', `/api/registry/flags/${samFlag}`)).body.status, 'withdrawn');

  // Checking Pat: the other rescue's flag, without its evidence; our review and a mark.
  await page.getByRole('tab', { name: 'Check a person' }).click();
  await page.getByText('Choose a person on file').waitFor();
  await page.getByRole('combobox', { name: 'Person on file' }).fill('Pat');
  await page.getByRole('option', { name: /Pat Lindqvist/ }).click();
  await page.getByText('One live flag matches this person').waitFor();
  const card = page.getByRole('article', { name: 'Flag: Do not adopt' });
  await card.getByText(`Test Rescue ${other.slug}`).waitFor();
  await card.getByText(/matched on email/).waitFor();
  assert.equal(await page.getByText('SECRET-EVIDENCE').count(), 0, 'another rescue’s evidence never shows');
  await axe(page, 'a person checked');
  await card.getByRole('combobox', { name: 'Our experience' }).click();
  await page.getByRole('option', { name: 'Disputes it' }).click();
  await card.getByRole('textbox', { name: 'Note' }).fill('Adopted from us twice, no problems.');
  await card.getByRole('button', { name: 'Add our review' }).click();
  await card.getByText('Adopted from us twice, no problems.').waitFor();
  await card.getByText('0 organizations confirmed, 1 disputed.').waitFor();
  await card.getByRole('textbox', { name: 'New mark' }).fill('ID checked');
  await card.getByRole('button', { name: 'Add the mark' }).click();
  await card.getByText('ID checked').waitFor();
  const raised = (await other.req('GET', `/api/registry/flags/${theirs.id}`)).body;
  assert.deepEqual(
    raised.reviews.map((r: any) => [r.verdict, r.note, r.organization.name]),
    [['disputes', 'Adopted from us twice, no problems.', `Test Rescue ${ours.slug}`]],
  );
  assert.deepEqual(raised.marks, [], 'our marks are ours only');
  const seen = (await ours.req('GET', `/api/registry/flags/matches?person_id=${pat.id}`)).body.results;
  assert.deepEqual(
    seen[0].your_marks.map((m: any) => m.label),
    ['ID checked'],
  );

  // The person pages: Pat warned, Sam (flag withdrawn) not.
  await page.goto(`${base}/app/people/${pat.id}`);
  await page.getByText('Registry warning: one live flag matches this person').waitFor();
  await axe(page, 'a person page with a registry warning');
  await page.getByRole('link', { name: 'See the registry check' }).click();
  await page.getByRole('article', { name: 'Flag: Do not adopt' }).waitFor();
  await page.goto(`${base}/app/people/${sam.id}`);
  await page.getByText('Registry: no flag from any rescue matches this person.').waitFor();

  // Publishing: our chips taken out of the lookup.
  await page.goto(`${base}/app/registry?tab=publishing`);
  const publish = page.getByRole('switch', { name: /Publish our animals' microchips/ });
  assert.equal(await publish.isChecked(), true);
  await axe(page, 'the publishing tab');
  await publish.click({ force: true });
  await page.getByText('Chips withdrawn from the lookup').waitFor();
  assert.equal((await ours.req('GET', '/api/registry/settings')).body.publish_chips, false);
  assert.deepEqual((await ours.req('GET', `/api/registry/microchips/${chip}`)).body.results, []);
  await context.close();
  assert.deepEqual(errors, []);

  // A role without the registry area: no Registry link, no registry line on a person page.
  const reader = await ours.sessionWith({ animals: 'read', people: 'read', settings: 'read' });
  const look = await openPage(bench, { org: ours, session: reader.session, timezoneId: 'UTC' });
  await look.page.goto(`${base}/app/people/${pat.id}`);
  await look.page.getByRole('heading', { name: 'Pat Lindqvist' }).waitFor();
  const nav = look.page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'People' }).waitFor();
  assert.equal(await nav.getByRole('link', { name: 'Registry' }).count(), 0);
  assert.equal(await look.page.getByText(/^Registry/).count(), 0);
  // Settings read without admin: the public site readable, no Webhooks tab.
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await look.page.getByRole('tab', { name: 'Public site' }).click();
  await look.page.getByText('Changing the website needs admin on Settings').waitFor();
  assert.equal(await look.page.getByRole('tab', { name: 'Webhooks' }).count(), 0);
  assert.equal(await look.page.getByRole('button', { name: 'Save the website' }).count(), 0);
  await look.context.close();
  assert.deepEqual(look.errors, []);
});

test('settings: webhook endpoints (secret once, deliveries with status codes, edit, pause, delete) and the public site', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(org);
  // A receiver that fails the first attempt and accepts the next.
  let hits = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(hits === 1 ? 503 : 200, { 'content-type': 'text/plain' }).end(hits === 1 ? 'down for a moment' : 'thanks');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  try {
    await page.goto(`${base}/app/settings`);
    await page.getByRole('tab', { name: 'Webhooks' }).click({ timeout: 90_000 });
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    const url = add.getByRole('textbox', { name: 'Address (URL)' });
    await url.fill('ftp://files.example.org/hook');
    await add.getByRole('textbox', { name: 'What it is for' }).fill('Website sync');
    await add.getByRole('checkbox', { name: /^animal\.created/ }).check();
    await add.getByRole('checkbox', { name: /^animal\.updated/ }).check();
    await add.getByRole('button', { name: 'Add the endpoint' }).click();
    await add.getByText('must be an https URL').waitFor();
    assert.equal(await url.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the address');
    await url.fill(hookUrl);
    await axe(page, 'the add-an-endpoint form');
    await add.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByText('Copy the signing secret now: it is never shown again').waitFor();
    const secret = await page.locator('pre').filter({ hasText: 'whsec_' }).innerText();
    assert.match(secret.trim(), /^whsec_[A-Za-z0-9+/=]+$/);
    const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
    await endpoints.getByText(hookUrl).waitFor();
    let list = (await org.req('GET', '/api/settings/webhooks')).body.results;
    assert.deepEqual(
      list.map((e: any) => [e.url, e.description, e.events, e.enabled]),
      [[hookUrl, 'Website sync', ['animal.created', 'animal.updated'], true]],
    );
    const id = list[0].id as string;
    await page.getByRole('button', { name: 'I have copied the secret' }).click();
    assert.equal(await page.getByText('whsec_').count(), 0, 'the secret is gone once dismissed');

    // An animal added: the first attempt answered 503, the retry 200.
    const animal = await made(org, 'POST', '/api/v1/animals', {
      name: 'Biscuit',
      species: 'dog',
      status: 'Available',
      intakeDate: '2026-01-05',
    });
    for (let i = 0; i < 5 && hits < 2; i++) await deliverDue(t.ctx, { organizations: [org.id], retryBaseMs: 0, timeoutMs: 2000 });
    assert.equal(hits, 2);
    await endpoints.getByRole('button', { name: `Deliveries to ${hookUrl}` }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    const row = deliveries.getByRole('row', { name: new RegExp(`animal\\.created ${animal.id} delivered`) });
    await row.getByText(/^503 failed/).waitFor();
    await row.getByText(/^200 ok/).waitFor();
    await axe(page, 'the webhooks with deliveries');
    await shot(page, 'webhooks');

    // Edited: a third event and a new description.
    await endpoints.getByRole('button', { name: `Edit ${hookUrl}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook endpoint' });
    await edit.getByRole('textbox', { name: 'What it is for' }).fill('Website sync and CRM');
    await edit.getByRole('checkbox', { name: /^person\.created/ }).check();
    await edit.getByRole('button', { name: 'Save the endpoint' }).click();
    await endpoints.getByText('Website sync and CRM').waitFor();
    let one = (await org.req('GET', `/api/settings/webhooks/${id}`)).body;
    assert.deepEqual(
      [one.description, [...one.events].sort()],
      ['Website sync and CRM', ['animal.created', 'animal.updated', 'person.created']],
    );

    // Paused (with the reason shown), resumed.
    await endpoints.getByRole('button', { name: `Pause ${hookUrl}` }).click();
    await endpoints.getByText('paused by an admin', { exact: false }).waitFor();
    one = (await org.req('GET', `/api/settings/webhooks/${id}`)).body;
    assert.deepEqual([one.enabled, one.paused_reason], [false, 'paused by an admin']);
    await axe(page, 'a paused endpoint');
    await endpoints.getByRole('button', { name: `Resume ${hookUrl}` }).click();
    await endpoints.getByText('enabled', { exact: true }).waitFor();
    assert.equal((await org.req('GET', `/api/settings/webhooks/${id}`)).body.enabled, true);

    // A new secret after a confirmation: shown once, and not the first one.
    await endpoints.getByRole('button', { name: `New secret for ${hookUrl}` }).click();
    await page.getByRole('dialog', { name: 'Replace the signing secret?' }).getByRole('button', { name: 'Replace the secret' }).click();
    await page.getByText('Copy the signing secret now: it is never shown again').waitFor();
    const second = await page.locator('pre').filter({ hasText: 'whsec_' }).innerText();
    assert.match(second.trim(), /^whsec_/);
    assert.notEqual(second.trim(), secret.trim());
    await page.getByRole('button', { name: 'I have copied the secret' }).click();

    // Deleted after a confirmation (kept once first).
    await endpoints.getByRole('button', { name: `Delete ${hookUrl}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the webhook endpoint?' });
    await axe(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.equal((await org.req('GET', '/api/settings/webhooks')).body.results.length, 1);
    await endpoints.getByRole('button', { name: `Delete ${hookUrl}` }).click();
    await confirm.getByRole('button', { name: 'Delete the endpoint' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
    list = (await org.req('GET', '/api/settings/webhooks')).body.results;
    assert.deepEqual(list, []);

    // The public site: colours, tagline, a refused donation address at its field, then saved.
    await page.getByRole('tab', { name: 'Public site' }).click();
    const site = page.getByRole('form', { name: 'The public website' });
    await site.getByText('The website is at').waitFor();
    await site.getByRole('textbox', { name: 'Main colour' }).fill('#1B5E20');
    await site.getByRole('textbox', { name: 'Tagline' }).fill('Every dog deserves a sofa');
    await site.getByRole('textbox', { name: 'How to adopt' }).fill('Fill in the application; we call you within two days.');
    const donation = site.getByRole('textbox', { name: 'Donation address' });
    await donation.fill('give us money');
    await site.getByRole('button', { name: 'Save the website' }).click();
    await site.locator('input[aria-invalid="true"]').waitFor();
    assert.equal(await donation.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the donation address');
    await donation.fill('https://give.example.org/rescue');
    await site.getByRole('button', { name: 'Save the website' }).click();
    await page.getByText('Public website saved').waitFor();
    const saved = (await org.req('GET', '/api/settings/public-site')).body;
    assert.deepEqual(
      [saved.primary_colour, saved.tagline, saved.how_to_adopt, saved.donation_url],
      ['#1b5e20', 'Every dog deserves a sofa', 'Fill in the application; we call you within two days.', 'https://give.example.org/rescue'],
    );
    await site.getByText(saved.widget).waitFor();
    // A listing site added.
    await page.getByText('No listing sites yet').waitFor();
    const syn = page.getByRole('form', { name: 'Add a listing site' });
    await syn.getByRole('textbox', { name: 'Server' }).fill('members.petfinder.com');
    await syn.getByRole('textbox', { name: 'User name' }).fill('ab123');
    await syn.getByLabel('Password').fill('ftp-secret');
    await syn.getByRole('textbox', { name: 'Folder' }).fill('/import');
    await syn.getByRole('button', { name: 'Add the listing site' }).click();
    await page.getByRole('table', { name: 'Listing sites' }).getByText('ab123@members.petfinder.com:21/import').waitFor();
    const targets = (await org.req('GET', '/api/settings/syndication')).body.results;
    assert.deepEqual(
      targets.map((x: any) => [x.format, x.protocol, x.host, x.port, x.username, x.remote_dir, x.enabled, x.password_set]),
      [['petfinder', 'ftp', 'members.petfinder.com', 21, 'ab123', '/import', true, true]],
    );
    await page.getByRole('switch', { name: 'Daily upload to members.petfinder.com' }).click({ force: true });
    await page.getByText('Daily upload off').waitFor();
    assert.equal((await org.req('GET', '/api/settings/syndication')).body.results[0].enabled, false);
    await axe(page, 'the public site settings');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'settings-public-site');
    await context.close();
    assert.deepEqual(errors, []);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
