// The staff app's adoptions, tasks-and-calendar and medical-due screens in a real Chromium (Debian's chromium
// driven by playwright-core), as src/modules/members/app.browser.test.ts does for the others: every page and
// form checked with axe (no serious or critical violations); screenshots to docs/screenshots/app-*.png.
// The organization is in New York and the browser in UTC, so times typed and shown must follow the organization.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DateTime } from 'luxon';
import { makeOrg, request, testApp, type TestApp } from '../../../test/harness.ts';
import { axe, type BrowserBench, initialJs, openPage, shot, startBrowser } from '../../../test/browser.ts';

const ZONE = 'America/New_York';

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

test('an application walked to an adoption and a return, a task added and done, a due vaccine recorded from the medical list', async () => {
  const org = await makeOrg(t, { timeZone: ZONE, currency: 'USD' });
  const base = bench.base(org);
  const made = async (method: string, url: string, body: Record<string, unknown>) => {
    const r = await org.req(method, url, { body });
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
  const now = DateTime.now().setZone(ZONE);
  const today = now.toISODate() as string;
  const pat = await made('POST', '/api/v1/people', { firstName: 'Pat', lastName: 'Lindqvist', email: 'pat@example.org' });
  const biscuit = await made('POST', '/api/v1/animals', {
    name: 'Biscuit',
    species: 'dog',
    sex: 'male',
    status: 'Available',
    intakeDate: '2026-01-05',
  });
  const miso = await made('POST', '/api/v1/animals', {
    name: 'Miso',
    species: 'cat',
    sex: 'female',
    status: 'Available',
    intakeDate: '2026-01-05',
  });
  await made('POST', '/api/animals/custom-fields', {
    entity_type: 'adoption_application',
    field_key: 'fenced_yard',
    field_label: 'Fenced yard',
    field_type: 'boolean',
  });
  const application = await made('POST', '/api/animals/adoption-applications', {
    person_id: pat.id,
    animal_ids: [biscuit.id],
    answers: { fenced_yard: true },
  });
  await made('POST', '/api/animals/contract-templates', {
    name: 'Standard',
    title: 'Adoption contract for {{animal_name}}',
    body: 'I, {{full_name}}, adopt {{animal_name}} from {{org_name}} for {{fee}}.',
  });
  // Two vaccines due for Miso: rabies today, FVRCP three days ago (still in the list after rabies is recorded).
  const rabies = await made('POST', '/api/animals/medical/catalogue', { kind: 'vaccine', name: 'Rabies', species: ['cat'] });
  const fvrcp = await made('POST', '/api/animals/medical/catalogue', { kind: 'vaccine', name: 'FVRCP', species: ['cat'] });
  await made('POST', `/api/animals/${miso.id}/medical/due`, { item_id: rabies.id, due_on: today });
  await made('POST', `/api/animals/${miso.id}/medical/due`, { item_id: fvrcp.id, due_on: now.minus({ days: 3 }).toISODate() });
  // And a dewormer in four days: only in the "Next 7 days" view.
  const dewormer = await made('POST', '/api/animals/medical/catalogue', { kind: 'treatment', name: 'Dewormer', species: ['cat'] });
  await made('POST', `/api/animals/${miso.id}/medical/due`, { item_id: dewormer.id, due_on: now.plus({ days: 4 }).toISODate() });
  const late = await made('POST', '/api/tasks', {
    title: 'Call the vet about Miso',
    due_at: new Date(Date.now() - 3_600_000).toISOString(),
    assignee_role: 'admin',
    priority: 'high',
    linked_type: 'animal',
    linked_id: miso.id,
  });

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });
  // The adoptions screen names animals from the application's `animals`: no read of each animal.
  const animalReads: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/v1\/animals\/[^/?]+$/.test(new URL(r.url()).pathname)) animalReads.push(r.url());
  });

  // Adoptions: the application being decided, opened: applicant, animal, answers; a contract sent; approved; finalized.
  await page.goto(`${base}/app/`);
  await page.getByRole('link', { name: 'Adoptions' }).click();
  const apps = page.getByRole('table', { name: 'Adoption applications' });
  await apps.getByRole('link', { name: 'Biscuit' }).waitFor();
  await axe(page, 'the applications list');
  await page.getByRole('button', { name: 'Open the application from Pat Lindqvist' }).click();
  const card = page.getByRole('region', { name: 'Application from Pat Lindqvist' });
  await card.getByRole('table', { name: 'Answers' }).getByText('Yes', { exact: true }).waitFor();
  await card.getByText('No contract yet').waitFor();
  await card.getByRole('combobox', { name: 'Contract template' }).click();
  await page.getByRole('option', { name: 'Standard (v1)' }).click();
  await card.getByRole('button', { name: 'Send the contract' }).click();
  await card.getByText('Signing link (shown once)').waitFor();
  const contracts = card.getByRole('table', { name: 'Contracts' });
  await contracts.getByText('awaiting signature').waitFor();
  // Withdrawn (its link stops working), sent again, and signed by Pat on the public signing page.
  await card.getByRole('button', { name: 'Withdraw Adoption contract for Biscuit' }).click();
  await card.getByText('No contract yet').waitFor();
  await card.getByRole('button', { name: 'Send the contract' }).click();
  await contracts.getByText('awaiting signature').waitFor();
  // A new link for the contract awaiting signature: shown in place of the first, which stops working.
  const first = (await card.locator('pre').textContent()) ?? '';
  await card.getByRole('button', { name: 'Send a new signing link for Adoption contract for Biscuit' }).click();
  await page.waitForFunction((old) => document.querySelector('pre')?.textContent !== old, first);
  assert.equal((await request(t, org.host, 'GET', new URL(first).pathname)).status, 404);
  const signing = new URL((await card.locator('pre').textContent()) ?? '');
  const adopter = await context.newPage();
  await adopter.goto(`${base}${signing.pathname}`);
  await adopter.getByLabel('Type your full name to sign').fill('Pat Lindqvist');
  await adopter.getByLabel('I have read this contract').check();
  await adopter.getByRole('button', { name: 'Sign' }).click();
  await adopter.waitForLoadState();
  await adopter.close();
  await card.getByRole('textbox', { name: 'Reason (optional)' }).fill('Home visit went well');
  await card.getByRole('button', { name: 'Approve' }).click();
  await card.getByText('Decision: approved', { exact: false }).waitFor();
  await contracts.getByText('signed', { exact: true }).waitFor();
  await axe(page, 'an application with its contract');
  // Approved: out of "Being decided", in "Approved".
  await page.locator('label', { hasText: 'Approved' }).click();
  await apps.getByText('Approved', { exact: true }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'adoptions');
  await card.getByRole('button', { name: 'Finalize the adoption…' }).click();
  const fin = page.getByRole('dialog', { name: 'Finalize the adoption' });
  await fin.getByText('Biscuit: $0.00 (no rule matches)').waitFor();
  await fin.getByRole('combobox', { name: 'Signed contract' }).click();
  await page.getByRole('option', { name: 'Adoption contract for Biscuit, signed by Pat Lindqvist' }).click();
  await fin.getByRole('checkbox', { name: 'A different fee' }).check();
  await fin.getByRole('textbox', { name: 'Fee per animal' }).fill('75');
  await axe(page, 'the finalize form');
  await fin.getByRole('textbox', { name: 'Why the fee differs' }).fill('Returning adopter discount');
  await fin.getByRole('button', { name: 'Finalize the adoption' }).click();
  await page.getByText('Adopted: Biscuit').waitFor();
  await card.getByText('Finalized: see the adoptions tab.').waitFor();
  await page.getByRole('tab', { name: 'Adoptions' }).click();
  const adopted = page.getByRole('table', { name: 'Adoptions' });
  await adopted.getByText('$75.00').waitFor();
  await adopted.getByRole('link', { name: 'Pat Lindqvist' }).waitFor();
  const byAnimal = (await org.req('GET', `/api/animals/adoptions?animal_id=${biscuit.id}`)).body.results;
  assert.deepEqual(
    byAnimal.map((a: { status: string; fee_minor: number; person_id: string }) => [a.status, a.fee_minor, a.person_id]),
    [['adopted', 7500, pat.id]],
  );
  const signedContracts = (await org.req('GET', `/api/animals/signed-contracts?application_id=${application.id}`)).body.results;
  assert.deepEqual(
    signedContracts.map((c: { status: string; signed_name: string }) => [c.status, c.signed_name]),
    [['signed', 'Pat Lindqvist']],
  );
  assert.equal(byAnimal[0].contract_id, signedContracts[0].id);
  assert.equal((await org.req('GET', `/api/animals/adoption-applications/${application.id}`)).body.decision, 'adopted');
  // The return: Biscuit comes back.
  await page.getByRole('button', { name: 'Record a return of Biscuit' }).click();
  const ret = page.getByRole('dialog', { name: 'Record a return' });
  await ret.getByRole('textbox', { name: 'Why' }).fill('Allergic household');
  await axe(page, 'the return form');
  await ret.getByRole('button', { name: 'Record the return' }).click();
  await adopted.getByText('returned', { exact: true }).waitFor();
  await adopted.getByText(/Allergic household/).waitFor();
  const back = (await org.req('GET', `/api/animals/adoptions?animal_id=${biscuit.id}`)).body.results[0];
  assert.equal(back.status, 'returned');
  assert.equal(back.return_reason, 'Allergic household');
  await axe(page, 'the adoptions list');
  assert.deepEqual(animalReads, []);

  // Tasks: the late one, a new one due tomorrow at 09:00 in New York (the browser is in UTC), the late one done.
  await page.getByRole('link', { name: 'Tasks and calendar' }).click();
  await page.getByRole('table', { name: 'Late' }).getByText('Call the vet about Miso').waitFor();
  await page.getByRole('table', { name: 'Late' }).getByRole('link', { name: 'Miso' }).waitFor();
  await page.locator('label', { hasText: 'My role (admin)' }).click();
  await page.getByRole('table', { name: 'Late' }).getByText('Call the vet about Miso').waitFor();
  await page.locator('label', { hasText: 'Assigned to me' }).click();
  await page.getByText('Nothing late assigned to you.').waitFor();
  await page.locator('label', { hasText: 'Everyone’s' }).click();
  await axe(page, 'the tasks due');
  const tomorrow = now.plus({ days: 1 }).toISODate() as string;
  await page.getByRole('button', { name: 'Add a task' }).click();
  const add = page.getByRole('dialog', { name: 'Add a task' });
  await add.getByRole('textbox', { name: 'Task' }).fill('Weigh the kittens');
  await add.getByLabel('Due').fill(`${tomorrow}T09:00`);
  await add.getByRole('textbox', { name: 'Role' }).fill('admin');
  await axe(page, 'the add-a-task form');
  await add.getByRole('button', { name: 'Add the task' }).click();
  await page.getByRole('table', { name: 'Upcoming' }).getByText('Weigh the kittens').waitFor();
  await page.getByRole('button', { name: 'Mark “Call the vet about Miso” done' }).click();
  await page.getByText('Nothing late.').waitFor();
  const done = (await org.req('GET', `/api/tasks/${late.id}`)).body;
  assert.equal(done.done, true);
  const open = (await org.req('GET', '/api/tasks?done=false')).body.results;
  assert.deepEqual(
    open.map((x: { title: string; due_at: string; assignee_role: string }) => [x.title, new Date(x.due_at).toISOString(), x.assignee_role]),
    [['Weigh the kittens', DateTime.fromISO(`${tomorrow}T09:00`, { zone: ZONE }).toUTC().toISO(), 'admin']],
  );
  // The calendar week (Monday first, in New York): the new task at 9:00 and Miso's vaccines due.
  await page.locator('label', { hasText: 'Calendar week' }).click();
  if (DateTime.fromISO(tomorrow).weekday === 1) await page.getByRole('button', { name: 'Next week' }).click();
  await page.getByText('Weigh the kittens').waitFor();
  await page.getByText(/09:00 New York time · Task/).waitFor();
  if (DateTime.fromISO(tomorrow).weekday === 1) await page.getByRole('button', { name: 'This week' }).click();
  await page.getByText('Rabies', { exact: false }).first().waitFor();
  await axe(page, 'the calendar week');
  await shot(page, 'tasks');

  // Medical due: Miso's two vaccines, rabies recorded given from the list.
  await page.getByRole('link', { name: 'Medical due' }).click();
  const due = page.getByRole('table', { name: 'Medical items due' });
  await due.getByText('overdue 3 d').waitFor();
  await due.getByText('due today').waitFor();
  assert.equal(await due.getByText('Dewormer').count(), 0);
  await axe(page, 'the medical due list');
  await shot(page, 'medical');
  await page.getByRole('button', { name: 'Record Rabies given to Miso' }).click();
  const give = page.getByRole('dialog', { name: 'Record it given' });
  await give.getByRole('textbox', { name: 'Dose' }).fill('1 mL');
  await give.getByRole('textbox', { name: 'Given by' }).fill('Dr. Ames');
  await axe(page, 'the record-it-given form');
  await give.getByRole('button', { name: 'Record it given' }).click();
  await page.getByText('Rabies recorded for Miso').waitFor();
  await due.getByText('due today').waitFor({ state: 'detached' });
  await due.getByText('FVRCP').waitFor();
  // Next 7 days: the dewormer coming up, overdue FVRCP still there, states against today.
  await page.locator('label', { hasText: 'Next 7 days' }).click();
  await due.getByText('coming up').waitFor();
  await due.getByText('Dewormer').waitFor();
  await due.getByText('overdue 3 d').waitFor();
  await axe(page, 'the medical due list, next 7 days');
  await shot(page, 'medical-week');
  await page.locator('label', { hasText: 'Today and overdue' }).click();
  await due.getByText('Dewormer').waitFor({ state: 'detached' });
  const medical = (await org.req('GET', `/api/animals/${miso.id}/medical`)).body;
  assert.deepEqual(
    medical.results.map((r: { name: string; dose: string; given_by: string }) => [r.name, r.dose, r.given_by]),
    [['Rabies', '1 mL', 'Dr. Ames']],
  );
  assert.deepEqual(
    medical.due.map((d: { item_name: string }) => d.item_name),
    ['FVRCP', 'Dewormer'],
  );
  // A tablet at the kennel: 768 px wide.
  await page.setViewportSize({ width: 768, height: 1024 });
  await axe(page, 'the medical due list at 768 px');
  // Below 992 px the navigation is behind the menu button.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Tasks and calendar' }).click();
  await page.getByRole('table', { name: 'Upcoming' }).getByText('Weigh the kittens').waitFor();
  await axe(page, 'the tasks at 768 px');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Adoptions' }).click();
  await page.locator('label', { hasText: 'All' }).click();
  await page.getByRole('table', { name: 'Adoption applications' }).getByText('Pat Lindqvist').waitFor();
  await axe(page, 'the adoptions at 768 px');
  await context.close();
  assert.deepEqual(errors, []);
  const kb = (initialJs() / 1024).toFixed(1);
  console.log(`# staff app: initial JavaScript ${kb} KiB gzipped`);
  assert.ok(initialJs() < 300 * 1024, `initial JavaScript ${kb} KiB gzipped is over 300 KiB`);
});
