// Settings → Custom fields in a real Chromium (test/browser.ts): the fields of every kind of record the member may
// read, each defined and changed through its own area's route; a member who administers Animals but only reads
// People sees people's fields without changing them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axe, type BrowserBench, openPage, startBrowser } from '../../../test/browser.ts';
import { makeOrg, testApp, type TestApp } from '../../../test/harness.ts';

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

test('custom fields of people and campaigns are defined and changed through their own routes', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const animalField = await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'coat', field_label: 'Coat', field_type: 'text' },
  });
  assert.equal(animalField.status, 201, animalField.raw);
  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  await page.goto(`${bench.base(org)}/app/`);
  await page.getByRole('link', { name: 'Settings', exact: true }).click({ timeout: 90_000 });
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  const table = page.getByRole('table', { name: 'Custom fields' });
  await table.getByText('Coat', { exact: true }).waitFor();

  // A people field: "Kept on" People sends it to /api/people/custom-fields.
  const form = page.getByRole('form', { name: 'Define a custom field' });
  await form.getByRole('combobox', { name: 'Kept on' }).click();
  await page.getByRole('option', { name: 'People', exact: true }).click();
  await form.getByRole('textbox', { name: 'Label' }).fill('Shirt size');
  await form.getByRole('textbox', { name: 'Key' }).fill('shirt');
  await form.getByRole('button', { name: 'Add the field' }).click();
  await table.getByRole('row', { name: /Shirt size shirt People/ }).waitFor();
  // A campaign field offers the single-value types only.
  await form.getByRole('combobox', { name: 'Kept on' }).click();
  await page.getByRole('option', { name: 'Fundraising campaigns' }).click();
  await form.getByRole('combobox', { name: 'Type' }).click();
  assert.equal(await page.getByRole('option', { name: 'multiselect' }).count(), 0);
  await page.keyboard.press('Escape');
  await form.getByRole('textbox', { name: 'Label' }).fill('Region');
  await form.getByRole('textbox', { name: 'Key' }).fill('region');
  await form.getByRole('button', { name: 'Add the field' }).click();
  await table.getByRole('row', { name: /Region region Fundraising campaigns/ }).waitFor();
  await axe(page, 'the custom fields of several areas');

  // Changing the people field goes to its own route.
  await page.getByRole('button', { name: 'Change the field Shirt size' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the field Shirt size' });
  await dialog.getByRole('textbox', { name: 'Label' }).fill('T-shirt size');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await table.getByText('T-shirt size', { exact: true }).waitFor();
  await page.screenshot({ path: '/tmp/ark-custom-fields-areas.png' });

  const people = (await org.req('GET', '/api/people/custom-fields')).body.results;
  assert.deepEqual(
    people.map((d: any) => [d.entity_type, d.field_key, d.field_label]),
    [['person', 'shirt', 'T-shirt size']],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/fundraising/custom-fields')).body.results.map((d: any) => d.field_key),
    ['region'],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/animals/custom-fields')).body.results.map((d: any) => d.field_key),
    ['coat'],
  );
  await context.close();
  assert.deepEqual(errors, []);

  // Admin on Animals, read on People: people's fields are listed, not changeable; People is not offered.
  const limited = await org.sessionWith({ animals: 'admin', people: 'read' });
  const other = await openPage(bench, { org, session: limited.session, timezoneId: 'UTC' });
  await other.page.goto(`${bench.base(org)}/app/settings`);
  await other.page.getByRole('tab', { name: 'Custom fields' }).click({ timeout: 90_000 });
  const seen = other.page.getByRole('table', { name: 'Custom fields' });
  await seen.getByText('T-shirt size', { exact: true }).waitFor();
  assert.equal(await seen.getByText('Region', { exact: true }).count(), 0, 'no read on Fundraising');
  assert.equal(await other.page.getByRole('button', { name: 'Change the field T-shirt size' }).count(), 0);
  await other.page.getByRole('button', { name: 'Change the field Coat' }).waitFor();
  await other.page.getByRole('form', { name: 'Define a custom field' }).getByRole('combobox', { name: 'Kept on' }).click();
  assert.equal(await other.page.getByRole('option', { name: 'People', exact: true }).count(), 0);
  await other.context.close();
  assert.deepEqual(other.errors, []);
});
