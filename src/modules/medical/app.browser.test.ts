// The staff app's Settings → Adoptions and Settings → Care tabs in a real Chromium (Debian's chromium driven
// by playwright-core, set up by test/browser.ts): application stages, fee schedules (money typed and shown
// exactly in the organization's currency), contract templates with merge fields, medical protocols, intake
// and outcome subtypes and the order of custom fields. What the app writes is checked through the API;
// every page and form is checked with axe; screenshots go to docs/screenshots/app-settings-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
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

const made = async (org: TestOrg, method: string, url: string, body?: Record<string, unknown>) => {
  const r = await org.req(method, url, body ? { body } : {});
  assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
  return r.body;
};
const dayPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** The field is marked invalid and its error (the API's sentence) is the text the field names as its description. */
async function refusedAt(page: Page, field: ReturnType<Page['getByRole']>, sentence: RegExp) {
  await page.getByText(sentence).first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `the refusal ${sentence} is shown at its field`);
  const describedBy = String(await field.getAttribute('aria-describedby'));
  const described = await page.evaluate(
    (ids) =>
      ids
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    describedBy,
  );
  assert.match(described, sentence, 'the sentence is the field’s own error');
}

test('Settings → Adoptions: stages added, moved, renamed, removed; a fee schedule in exact money; a contract template', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC', currency: 'USD' });
  const base = bench.base(org);
  // A puppy, 10 weeks old: the schedule made in the app must quote the puppy fee less the promotion.
  const puppy = await made(org, 'POST', '/api/v1/animals', {
    name: 'Biscuit',
    species: 'dog',
    status: 'Available',
    intakeDate: dayPlus(0),
    dateOfBirth: dayPlus(-70),
  });
  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  await page.goto(`${base}/app/settings`);
  await page.getByRole('tab', { name: 'Adoptions' }).click();

  // Stages: the defaults in order; a duplicate name refused at the field; one added, moved up, renamed and re-kinded, removed.
  const stages = page.getByRole('table', { name: 'Application stages' });
  await stages.getByRole('cell', { name: 'Animal adopted', exact: true }).waitFor();
  const newStage = page.getByRole('textbox', { name: 'New stage' });
  await newStage.fill('approved');
  await page.getByRole('button', { name: 'Add the stage' }).click();
  await refusedAt(page, newStage, /another stage has this name/);
  await axe(page, 'the adoptions settings with a refused stage');
  await newStage.fill('Pending references');
  await page.getByRole('button', { name: 'Add the stage' }).click();
  await stages.getByRole('cell', { name: 'Pending references', exact: true }).waitFor();
  const stageNames = async () => (await org.req('GET', '/api/animals/application-stages')).body.results.map((s: any) => s.name);
  assert.equal((await stageNames()).at(-1), 'Pending references', 'added after the last stage');
  await page.getByRole('button', { name: 'Move the stage Pending references up' }).click();
  await page.getByText('Moved the stage Pending references up').waitFor();
  await stages.getByRole('row').nth(-1).getByRole('cell', { name: 'Animal adopted', exact: true }).waitFor();
  assert.deepEqual((await stageNames()).slice(-2), ['Pending references', 'Animal adopted'], 'moved up, checked through the API');
  await page.getByRole('button', { name: 'Change the stage Pending references' }).click();
  const editStage = page.getByRole('dialog', { name: 'Change the stage Pending references' });
  await editStage.getByRole('textbox', { name: 'Stage name' }).fill('References checked');
  await editStage.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Approved: may be finalized' }).click();
  await axe(page, 'the change-a-stage form');
  await editStage.getByRole('button', { name: 'Save' }).click();
  await stages.getByRole('cell', { name: 'References checked', exact: true }).waitFor();
  const renamed = (await org.req('GET', '/api/animals/application-stages')).body.results.find((s: any) => s.name === 'References checked');
  assert.equal(renamed?.kind, 'approved');
  await page.getByRole('button', { name: 'Remove the stage References checked' }).click();
  await page.getByRole('dialog', { name: 'Remove the stage References checked?' }).getByRole('button', { name: 'Remove' }).click();
  await stages.getByRole('cell', { name: 'References checked', exact: true }).waitFor({ state: 'detached' });
  assert.ok(!(await stageNames()).includes('References checked'), 'removed through the API');

  // A fee schedule: typed in dollars and cents, sent as integer cents; a refused amount (three decimals) at its field
  // before anything is sent; a promotion ending before it starts refused by the API at its date.
  await page.getByText('No fee schedule yet').waitFor();
  await page.getByRole('button', { name: 'Add a fee schedule' }).click();
  const sched = page.getByRole('dialog', { name: 'Add a fee schedule' });
  await sched.getByRole('textbox', { name: 'Schedule name' }).fill('Standard fees');
  await sched.getByRole('button', { name: 'Add a fee' }).click();
  const fee1 = sched.getByRole('group', { name: 'Fee 1' });
  await fee1.getByRole('textbox', { name: 'Fee 1 name' }).fill('Puppy');
  await fee1.getByRole('textbox', { name: 'Species' }).fill('dog');
  await fee1.getByRole('textbox', { name: 'From week' }).fill('0');
  await fee1.getByRole('textbox', { name: 'Until week' }).fill('26');
  const amount1 = fee1.getByRole('textbox', { name: 'Fee (USD)' });
  await amount1.fill('250.505');
  await sched.getByRole('button', { name: 'Add a fee' }).click();
  const fee2 = sched.getByRole('group', { name: 'Fee 2' });
  await fee2.getByRole('textbox', { name: 'Fee 2 name' }).fill('Adult');
  await fee2.getByRole('textbox', { name: 'Fee (USD)' }).fill('150');
  await sched.getByRole('button', { name: 'Add a promotion' }).click();
  const promo = sched.getByRole('group', { name: 'Promotion 1' });
  await promo.getByRole('textbox', { name: 'Promotion 1 name' }).fill('Summer');
  await promo.getByRole('textbox', { name: 'From' }).fill(dayPlus(-1));
  const until = promo.getByRole('textbox', { name: 'Until' });
  await until.fill(dayPlus(-2));
  await promo.getByRole('combobox', { name: 'Discount' }).click();
  await page.getByRole('option', { name: 'a percentage off' }).click();
  await promo.getByRole('textbox', { name: 'Percent off' }).fill('10');
  await sched.getByRole('button', { name: 'Save the schedule' }).click();
  await refusedAt(page, amount1, /has at most 2 digits after the point in USD/);
  assert.equal((await org.req('GET', '/api/animals/fee-schedules')).body.results.length, 0, 'nothing sent');
  await amount1.fill('250.5');
  await sched.getByRole('button', { name: 'Save the schedule' }).click();
  await refusedAt(page, until, /must not be before starts_on/);
  await axe(page, 'the fee schedule form with a refused date');
  await until.fill(dayPlus(30));
  await sched.getByRole('button', { name: 'Save the schedule' }).click();
  const card = page.getByRole('article', { name: 'Fee schedule Standard fees' });
  await card.getByRole('cell', { name: '$250.50', exact: true }).waitFor();
  await card.getByRole('cell', { name: '$150.00', exact: true }).waitFor();
  await card.getByText('in force').waitFor();
  await card.getByText(/Summer .*10 % off/).waitFor();
  const schedules = (await org.req('GET', '/api/animals/fee-schedules')).body.results;
  assert.equal(schedules.length, 1);
  assert.equal(schedules[0].active, true);
  assert.deepEqual(
    schedules[0].rules.map((r: any) => [r.name, r.species, r.min_age_weeks, r.max_age_weeks, r.amount_minor]),
    [
      ['Puppy', 'dog', 0, 26, 25050],
      ['Adult', null, null, null, 15000],
    ],
    'the amounts in integer cents, in the order typed',
  );
  assert.deepEqual(
    schedules[0].promotions.map((p: any) => [p.name, p.starts_on, p.ends_on, p.percent_off]),
    [['Summer', dayPlus(-1), dayPlus(30), 10]],
  );
  const quote = (await org.req('GET', `/api/animals/${puppy.id}/adoption-fee`)).body;
  assert.deepEqual([quote.rule, quote.promotion, quote.base_amount_minor, quote.amount_minor], ['Puppy', 'Summer', 25050, 22545]);
  // The amounts open again as typed money; swapping the two fees is saved in the new order.
  await page.getByRole('button', { name: 'Change the fee schedule Standard fees' }).click();
  const change = page.getByRole('dialog', { name: 'Change the fee schedule Standard fees' });
  assert.equal(await change.getByRole('group', { name: 'Fee 1' }).getByRole('textbox', { name: 'Fee (USD)' }).inputValue(), '250.50');
  await change.getByRole('button', { name: 'Move fee 2 up' }).click();
  await change.getByRole('button', { name: 'Save the schedule' }).click();
  await change.waitFor({ state: 'detached' });
  assert.deepEqual(
    (await org.req('GET', '/api/animals/fee-schedules')).body.results[0].rules.map((r: any) => r.name),
    ['Adult', 'Puppy'],
  );

  // A contract template: a merge field inserted at the cursor, an unknown one refused at the text, the preview marks them.
  await page.getByText('No contract templates yet').waitFor();
  await page.getByRole('button', { name: 'Add a contract template' }).click();
  const tpl = page.getByRole('dialog', { name: 'Add a contract template' });
  await tpl.getByRole('textbox', { name: 'Template name' }).fill('Standard adoption');
  await tpl.getByRole('textbox', { name: 'Contract title' }).fill('Adoption agreement for {{animal_name}}');
  const body = tpl.getByRole('textbox', { name: 'Contract text' });
  await body.fill('Dear ');
  await tpl.getByRole('button', { name: 'Insert first_name' }).click();
  assert.equal(await body.inputValue(), 'Dear {{first_name}}');
  await body.fill('Dear {{first_name}},\n\nYou adopt {{dog_name}} for {{fee}}.');
  await tpl.getByRole('region', { name: 'Preview of the contract' }).getByText('{{fee}}').waitFor();
  await tpl.getByRole('button', { name: 'Save the template' }).click();
  await refusedAt(page, body, /unknown merge fields: dog_name/);
  await axe(page, 'the contract template form with a refused merge field');
  await body.fill('Dear {{first_name}},\n\nYou adopt {{animal_name}} for {{fee}}.');
  await tpl.getByRole('button', { name: 'Save the template' }).click();
  const templates = page.getByRole('table', { name: 'Contract templates' });
  await templates.getByRole('cell', { name: 'Standard adoption', exact: true }).waitFor();
  let saved = (await org.req('GET', '/api/animals/contract-templates')).body.results;
  assert.deepEqual(
    saved.map((x: any) => [x.name, x.title, x.body, x.status, x.version, [...x.merge_fields].sort()]),
    [
      [
        'Standard adoption',
        'Adoption agreement for {{animal_name}}',
        'Dear {{first_name}},\n\nYou adopt {{animal_name}} for {{fee}}.',
        'active',
        1,
        ['animal_name', 'fee', 'first_name'],
      ],
    ],
  );
  // A new text makes version 2; the form then shows version 1 as it read.
  await page.getByRole('button', { name: 'Change the contract template Standard adoption' }).click();
  const tpl2 = page.getByRole('dialog', { name: 'Change the contract template Standard adoption' });
  await tpl2.getByRole('textbox', { name: 'Contract text' }).fill('Dear {{full_name}},\n\nYou adopt {{animal_name}} for {{fee}}.');
  await tpl2.getByRole('button', { name: 'Save the template' }).click();
  await templates.getByRole('cell', { name: '2', exact: true }).waitFor();
  saved = (await org.req('GET', '/api/animals/contract-templates')).body.results;
  assert.deepEqual([saved[0].version, saved[0].body], [2, 'Dear {{full_name}},\n\nYou adopt {{animal_name}} for {{fee}}.']);
  await page.getByRole('button', { name: 'Change the contract template Standard adoption' }).click();
  const earlier = page.getByRole('region', { name: 'Earlier versions' });
  await earlier.getByText('Version 1: Adoption agreement for {{animal_name}}').waitFor();
  await axe(page, 'the contract template form with an earlier version');
  await page
    .getByRole('dialog', { name: 'Change the contract template Standard adoption' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await page.setViewportSize({ width: 1280, height: 1700 });
  await axe(page, 'the adoptions settings');
  await shot(page, 'settings-adoptions');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Archive the contract template Standard adoption' }).click();
  await templates.getByText('archived').waitFor();
  saved = (await org.req('GET', '/api/animals/contract-templates')).body.results;
  assert.equal(saved[0].status, 'archived');
  // Return windows: the dog's changed, a rabbit's added (the whole map checked through the API).
  const windows = page.getByRole('form', { name: 'Return windows' });
  await windows.getByRole('textbox', { name: 'Days for dog' }).fill('21');
  await windows.getByRole('button', { name: 'Add a species' }).click();
  await windows.getByRole('textbox', { name: 'Species 4', exact: true }).fill('Rabbit');
  await windows.getByRole('textbox', { name: 'Days for Rabbit' }).fill('10');
  await windows.getByRole('button', { name: 'Save the return windows' }).click();
  await page.getByText('Return windows saved').waitFor();
  assert.deepEqual((await org.req('GET', '/api/animals/adoption-settings')).body.return_window_days, {
    dog: 21,
    cat: 7,
    rabbit: 10,
    '*': 14,
  });
  await context.close();
  assert.deepEqual(errors, []);
});

test('Settings → Care: a protocol made in the app gives a dog its first dose at intake; subtypes and custom fields ordered', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(org);
  await made(org, 'POST', '/api/animals/medical/catalogue', { kind: 'vaccine', name: 'DHPP', species: ['dog'] });
  await made(org, 'POST', '/api/animals/medical/catalogue', { kind: 'vaccine', name: 'FVRCP', species: ['cat'] });
  await made(org, 'POST', '/api/animals/custom-fields', {
    entity_type: 'animal',
    field_key: 'temperament',
    field_label: 'Temperament',
    field_type: 'text',
  });
  await made(org, 'POST', '/api/animals/custom-fields', {
    entity_type: 'animal',
    field_key: 'diet',
    field_label: 'Diet',
    field_type: 'text',
  });
  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  await page.goto(`${base}/app/settings`);
  await page.getByRole('tab', { name: 'Care' }).click();

  // A protocol: the catalogue offers the dog's vaccine only; three doses without an interval refused at the interval.
  await page.getByText('No protocols yet').waitFor();
  await page.getByRole('button', { name: 'Add a protocol' }).click();
  const form = page.getByRole('dialog', { name: 'Add a protocol' });
  await form.getByRole('textbox', { name: 'Protocol name' }).fill('Puppy DHPP');
  await form.getByRole('combobox', { name: 'Vaccine or treatment' }).click();
  assert.equal(await page.getByRole('option', { name: 'FVRCP (vaccine)' }).count(), 0, 'a cat vaccine is not offered for dogs');
  await page.getByRole('option', { name: 'DHPP (vaccine)' }).click();
  await form.getByRole('textbox', { name: 'Doses', exact: true }).fill('3');
  await form.getByRole('button', { name: 'Save the protocol' }).click();
  const interval = form.getByRole('textbox', { name: 'Days between doses' });
  await refusedAt(page, interval, /is required unless doses is 1/);
  await axe(page, 'the protocol form with a refused interval');
  await interval.fill('21');
  await form.getByRole('button', { name: 'Save the protocol' }).click();
  const protocols = page.getByRole('table', { name: 'Medical protocols' });
  await protocols.getByRole('cell', { name: 'at intake, 3 doses 21 days apart', exact: true }).waitFor();
  const [p] = (await org.req('GET', '/api/animals/medical/protocols')).body.results;
  assert.deepEqual(
    [p.name, p.species, p.item_name, p.start_age_weeks, p.doses, p.interval_days, p.stop_age_weeks, p.active],
    ['Puppy DHPP', 'dog', 'DHPP', 0, 3, 21, null, true],
  );
  // A dog coming in now is due its first dose today; a cat is not.
  const today = dayPlus(0);
  const rex = await made(org, 'POST', '/api/v1/animals', { name: 'Rex', species: 'dog', status: 'Available', intakeDate: today });
  const tom = await made(org, 'POST', '/api/v1/animals', { name: 'Tom', species: 'cat', status: 'Available', intakeDate: today });
  const due = (await org.req('GET', `/api/animals/${rex.id}/medical`)).body.due;
  assert.deepEqual(
    due.map((d: any) => [d.item_name, d.protocol_id, d.dose_number, d.due_on]),
    [['DHPP', p.id, 1, today]],
  );
  assert.deepEqual((await org.req('GET', `/api/animals/${tom.id}/medical`)).body.due, []);
  // Stopped: a dog coming in after gets nothing; the protocol made a due item, so removing it is refused.
  await page.getByRole('button', { name: 'Stop the protocol Puppy DHPP' }).click();
  await protocols.getByText('stopped').waitFor();
  assert.equal((await org.req('GET', `/api/animals/medical/protocols/${p.id}`)).body.active, false);
  const max = await made(org, 'POST', '/api/v1/animals', { name: 'Max', species: 'dog', status: 'Available', intakeDate: today });
  assert.deepEqual((await org.req('GET', `/api/animals/${max.id}/medical`)).body.due, []);
  await page.getByRole('button', { name: 'Remove the protocol Puppy DHPP' }).click();
  await page.getByText(/has made 1 due item; set active to false instead/).waitFor();

  // Intake subtypes: one added under its SAC category, moved up, retired, then (unused) removed.
  const intakes = page.getByRole('table', { name: 'Intake subtypes' });
  await intakes.getByRole('cell', { name: 'Surrender', exact: true }).waitFor();
  const newIntake = page.getByRole('textbox', { name: 'New intake subtype' });
  await newIntake.fill('stray');
  await page.getByRole('combobox', { name: 'SAC intake category' }).click();
  await page.getByRole('option', { name: 'stray', exact: true }).click();
  await page.getByRole('form', { name: 'Add an intake subtype' }).getByRole('button', { name: 'Add' }).click();
  await refusedAt(page, newIntake, /subtype named stray already exists/i);
  await newIntake.fill('Found at the fair');
  await page.getByRole('form', { name: 'Add an intake subtype' }).getByRole('button', { name: 'Add' }).click();
  await intakes.getByRole('cell', { name: 'Found at the fair', exact: true }).waitFor();
  const intakeNames = async (retired = false) =>
    (await org.req('GET', `/api/animals/stay-subtypes?kind=intake&include_retired=${retired}`)).body.results;
  let list = await intakeNames();
  const fair = list.find((s: any) => s.name === 'Found at the fair');
  assert.equal(fair.category, 'stray');
  assert.equal(list.at(-1).name, 'Found at the fair');
  const before = list.at(-2).name;
  await page.getByRole('button', { name: 'Move the intake subtype Found at the fair up' }).click();
  await page.getByText('Moved the intake subtype Found at the fair up').waitFor();
  list = await intakeNames();
  assert.deepEqual(
    list.slice(-2).map((s: any) => s.name),
    ['Found at the fair', before],
    'moved up, checked through the API',
  );
  await page.getByRole('button', { name: 'Retire the intake subtype Found at the fair' }).click();
  await intakes.getByRole('cell', { name: 'Found at the fair', exact: true }).waitFor({ state: 'detached' });
  assert.ok(!(await intakeNames()).some((s: any) => s.name === 'Found at the fair'), 'retired: no longer offered');
  assert.equal((await intakeNames(true)).find((s: any) => s.name === 'Found at the fair')?.retired, true);
  await page.getByRole('checkbox', { name: 'Show retired intake subtypes too' }).check();
  await intakes.getByText('retired').waitFor();
  await page.getByRole('button', { name: 'Remove the intake subtype Found at the fair' }).click();
  await page.getByRole('dialog', { name: 'Remove the intake subtype Found at the fair?' }).getByRole('button', { name: 'Remove' }).click();
  await intakes.getByRole('cell', { name: 'Found at the fair', exact: true }).waitFor({ state: 'detached' });
  assert.ok(!(await intakeNames(true)).some((s: any) => s.name === 'Found at the fair'), 'removed');
  // An outcome subtype renamed.
  await page.getByRole('button', { name: 'Change the outcome subtype Adoption', exact: true }).click();
  const editOutcome = page.getByRole('dialog', { name: 'Change the outcome subtype Adoption' });
  await editOutcome.getByRole('textbox', { name: 'Subtype name' }).fill('Adopted');
  await axe(page, 'the change-a-subtype form');
  await editOutcome.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('table', { name: 'Outcome subtypes' }).getByRole('cell', { name: 'Adopted', exact: true }).waitFor();
  const outcomes = (await org.req('GET', '/api/animals/stay-subtypes?kind=outcome')).body.results;
  assert.equal(outcomes.find((s: any) => s.name === 'Adopted')?.category, 'adoption');

  // Custom fields: Diet moved above Temperament in one reorder.
  const order = page.getByRole('table', { name: 'Order of the custom fields' });
  await order.getByRole('cell', { name: 'Diet', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Move the field Diet up' }).click();
  await order.getByRole('row').nth(1).getByRole('cell', { name: 'Diet', exact: true }).waitFor();
  const fields = (await org.req('GET', '/api/animals/custom-fields')).body.results;
  assert.deepEqual(
    fields.map((d: any) => d.field_key),
    ['diet', 'temperament'],
  );

  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.getByRole('tab', { name: 'Care' }).scrollIntoViewIfNeeded();
  await axe(page, 'the care settings');
  await shot(page, 'settings-care');
  await context.close();
  assert.deepEqual(errors, []);

  // A role reading Animals only: both tabs to read, without a button that changes anything.
  const reader = await org.sessionWith({ animals: 'read' });
  const look = await openPage(bench, { org, session: reader.session, timezoneId: 'UTC' });
  await look.page.goto(`${base}/app/settings`);
  await look.page.getByRole('tab', { name: 'Care' }).click();
  await look.page.getByRole('table', { name: 'Medical protocols' }).getByRole('cell', { name: 'Puppy DHPP', exact: true }).waitFor();
  await look.page.getByText('Changing these needs admin on Animals; you can read them.').waitFor();
  for (const name of ['Add a protocol', 'Change the protocol Puppy DHPP', 'Move the field Diet up'])
    assert.equal(await look.page.getByRole('button', { name }).count(), 0, name);
  assert.equal(await look.page.getByRole('form', { name: 'Add an intake subtype' }).count(), 0);
  await look.page.getByRole('tab', { name: 'Adoptions' }).click();
  await look.page.getByRole('table', { name: 'Application stages' }).getByRole('cell', { name: 'Approved', exact: true }).waitFor();
  for (const name of ['Add the stage', 'Add a fee schedule', 'Add a contract template', 'Save the return windows'])
    assert.equal(await look.page.getByRole('button', { name }).count(), 0, name);
  await axe(look.page, 'the adoptions settings read only');
  await look.context.close();
  assert.deepEqual(look.errors, []);
});
