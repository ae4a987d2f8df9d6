// The intake day in a real Chromium (test/browser.ts): a stray taken in from a registry lookup hit (the chip another
// rescue holds is shown, never blocking), with its finder added after the likely-duplicate check, a breed from the
// catalogue, a kennel and a first photo; the profile edited in place (an error shown at its field); an outcome
// recorded; the animal found by part of its name without its accent. Each step is checked through the API (the stay's
// type, the SAC report counting a stray as stray). Screenshots: app-intake.png, app-animal-profile.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  bench = await startBrowser(() => testApp());
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

test('intake of a stray with its finder and a chip another rescue holds, profile edits, an outcome, the name search', async () => {
  const ours = await makeOrg(t, { timeZone: 'UTC' });
  const other = await makeOrg(t, { timeZone: 'UTC' });
  const chip = `985112${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  await made(other, 'POST', '/api/v1/animals', {
    name: 'Lost dog',
    species: 'dog',
    status: 'Adopted',
    intakeDate: '2025-06-01',
    microchipNumber: chip,
  });
  await made(ours, 'POST', '/api/animals/breeds', { species: 'dog', name: 'Beagle' });
  const loc = await made(ours, 'POST', '/api/animals/locations', { name: 'Main shelter', type: 'shelter' });
  await made(ours, 'POST', '/api/animals/housing-units', { location_id: loc.id, name: 'Kennel 7', type: 'kennel', capacity: 2 });
  // Someone already on file with the finder's email: the new-person form offers them first.
  await made(ours, 'POST', '/api/v1/people', { firstName: 'Samuel', lastName: 'Finch', email: 'sam.finch@example.org' });

  const { session } = await ours.sessionWith('admin');
  const { page, errors } = await openPage(bench, { org: ours, session, timezoneId: 'UTC' });
  const base = bench.base(ours);
  await page.goto(`${base}/app/registry`);
  await page.getByRole('heading', { name: 'Registry' }).waitFor({ timeout: 90_000 });
  await page.getByRole('textbox', { name: 'Microchip number' }).fill(chip);
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByRole('link', { name: 'Start an intake with this chip' }).click();

  // The intake screen, the chip prefilled and answered by the registry.
  await page.getByRole('heading', { name: 'Take in an animal' }).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'Microchip number' }).inputValue(), chip);
  await page.getByTestId('chip-check').getByText(`Test Rescue ${other.slug}`).waitFor();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Zoé');
  await page.getByRole('combobox', { name: 'Breed' }).fill('Bea');
  await page.getByRole('option', { name: 'Beagle' }).click();
  await page.getByText('Female', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Colour' }).fill('Tricolour');
  await page.getByRole('textbox', { name: 'Years (about)' }).fill('2');
  await page.getByRole('combobox', { name: 'Intake type' }).click();
  await page.getByRole('option', { name: 'Stray', exact: true }).click();
  await page.getByText('Counted as: Stray').waitFor();
  await page.getByRole('button', { name: 'New person' }).click();
  await page.getByRole('textbox', { name: 'First name' }).fill('Sam');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Finch');
  await page.getByRole('textbox', { name: 'Email' }).fill('sam.finch@example.org');
  await page.getByTestId('person-matches').getByRole('button', { name: 'Use Samuel Finch' }).waitFor();
  await page.getByRole('button', { name: 'Use Samuel Finch' }).click();
  await page.getByText('Brought in by').getByText('Samuel Finch').waitFor();
  await page.getByRole('textbox', { name: 'Where it was found' }).fill('Corner of Elm and 4th');
  await page.getByRole('combobox', { name: 'Condition at intake' }).click();
  await page.getByRole('option', { name: 'Treatable', exact: true }).click();
  await page.getByRole('combobox', { name: 'Kennel' }).click();
  await page.getByRole('option', { name: 'Kennel 7: 2 of 2 places free' }).click();
  const photo = await sharp({ create: { width: 480, height: 360, channels: 3, background: { r: 190, g: 140, b: 90 } } })
    .png()
    .toBuffer();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'First photo' }).click()]);
  await chooser.setFiles({ name: 'zoe.png', mimeType: 'image/png', buffer: photo });
  await axe(page, 'the intake screen');
  await page.setViewportSize({ width: 1280, height: 1250 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'intake');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Take in the animal' }).click();

  // The animal page leads with the animal.
  await page.getByRole('heading', { name: 'Zoé' }).waitFor();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.getByRole('img', { name: 'Zoé, the primary photo' }).waitFor();
  await page.getByText('Kennel: Main shelter · Kennel 7').waitFor();
  const stays = (await ours.req('GET', `/api/animals/${id}/stays`)).body;
  assert.equal(stays.results.length, 1);
  const finch = (await ours.req('GET', '/api/v1/people?q=Samuel')).body.data[0];
  assert.deepEqual(
    [
      stays.results[0].intake.type,
      stays.results[0].intake.subtype,
      stays.results[0].intake.source_person_id,
      stays.results[0].intake.condition,
    ],
    ['stray', 'Stray', finch.id, 'treatable'],
  );
  const a = (await ours.req('GET', `/api/v1/animals/${id}`)).body;
  assert.deepEqual([a.sex, a.breed, a.microchipNumber], ['female', 'Beagle', chip]);
  const month = new Date().toISOString().slice(0, 7);
  const sac = (await ours.req('GET', `/api/reports/sac?month=${month}&species_group=dogs`)).body;
  const intakes = Object.fromEntries(sac.intakes.map((x: { type: string; counts: { total: number } }) => [x.type, x.counts.total]));
  assert.deepEqual([intakes.stray, intakes.other], [1, 0], 'the stray counts as stray');

  // Editing the profile in place: a refused value is shown at its field, then real values.
  const profile = page.getByRole('table', { name: 'Profile' });
  await profile.getByRole('button', { name: 'Edit intake date' }).click();
  await page.getByRole('textbox', { name: 'Intake date' }).fill('2099-01-01');
  await page.getByRole('form', { name: 'Change intake date' }).getByRole('button', { name: 'Save' }).click();
  await page.getByText('intake_date must not be after today').waitFor();
  await page.getByRole('form', { name: 'Change intake date' }).getByRole('button', { name: 'Cancel' }).click();
  await profile.getByRole('button', { name: 'Edit sex' }).click();
  await page.getByRole('combobox', { name: 'Sex' }).click();
  await page.getByRole('option', { name: 'Male', exact: true }).click();
  await page.getByRole('form', { name: 'Change sex' }).getByRole('button', { name: 'Save' }).click();
  await page.getByText('Sex saved').waitFor();
  await profile.getByRole('button', { name: 'Edit public name' }).click();
  await page.getByRole('textbox', { name: 'Public name' }).fill('Zoé the Beagle');
  await page.getByRole('form', { name: 'Change public name' }).getByRole('button', { name: 'Save' }).click();
  await page.getByText('Shown to the public as Zoé the Beagle').waitFor();
  await profile.getByRole('button', { name: 'Edit on the public website' }).click();
  await page.getByRole('switch', { name: 'Listed on the public website' }).check({ force: true });
  await page.getByRole('form', { name: 'Change on the public website' }).getByRole('button', { name: 'Save' }).click();
  await profile.getByText('Yes, listed').waitFor();
  const edited = (await ours.req('GET', `/api/v1/animals/${id}`)).body;
  assert.deepEqual([edited.sex, edited.publicName, edited.isPublic, edited.intakeDate.length], ['male', 'Zoé the Beagle', true, 10]);
  assert.notEqual(edited.intakeDate, '2099-01-01', 'the refused date changed nothing');
  await axe(page, 'the animal profile');
  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'animal-profile');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Recording an outcome from the Stays tab: reclaimed by the person who found her.
  await page.getByRole('tab', { name: 'Stays' }).click();
  await page.getByRole('table', { name: 'Stays' }).getByText('Stray (Stray)').waitFor();
  await page.getByRole('button', { name: 'Record an outcome' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record an outcome' });
  await dialog.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: 'Reclaimed' }).click();
  await dialog.getByRole('combobox', { name: 'Went to (person)' }).fill('Samuel');
  await page.getByRole('option', { name: /Samuel Finch/ }).click();
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Owner came with photos');
  await axe(page, 'recording an outcome');
  await dialog.getByRole('button', { name: 'Record the outcome' }).click();
  await page.getByRole('table', { name: 'Stays' }).getByText('Returned to owner (Reclaimed)').waitFor();
  const closed = (await ours.req('GET', `/api/animals/${id}/stays`)).body.results[0];
  assert.deepEqual(
    [closed.outcome.type, closed.outcome.destination_person_id, closed.outcome.notes],
    ['return_to_owner', finch.id, 'Owner came with photos'],
  );
  assert.equal((await ours.req('GET', `/api/v1/animals/${id}`)).body.status, 'Returned to Owner');
  // Gone home: the page says she left care, and names the kennel she had as her last, not as where she is.
  await page.getByText('Left care', { exact: true }).waitFor();
  await page.getByText('Last kennel: Main shelter · Kennel 7').waitFor();
  assert.equal(
    await page
      .getByRole('table', { name: 'Stays' })
      .getByText(/^(true|false)$/)
      .count(),
    0,
    'no raw true/false',
  );

  // The animals list: she has left care, so the default view does not show her; All and the name search without the accent do.
  await page.goto(`${base}/app/animals`);
  await page.getByRole('heading', { name: 'Animals' }).waitFor();
  await page.getByRole('textbox', { name: 'Name' }).fill('zoe');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText("No animal's name contains “zoe” in this view: try All.").waitFor();
  await page.getByText('All', { exact: true }).click();
  const row = page.getByTestId('animals-table').getByRole('row', { name: /Zoé/ });
  await row.getByText('Main shelter · Kennel 7').waitFor();
  await row.getByText('2 years').waitFor();
  await axe(page, 'the animals list, searched by name');
  const found = (await ours.req('GET', '/api/animals?q=ZOE')).body;
  assert.deepEqual(
    found.results.map((r: { id: string }) => r.id),
    [id],
  );
  assert.deepEqual(errors, []);
});
