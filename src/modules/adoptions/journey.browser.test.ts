// A shelter's adoption day in the browser alone: a walk-in added (warned of someone alike first), an application sent
// from the public animal page with the animal already chosen, walked through the stages, the contract signed, the
// adoption finalized with that contract preselected, the fee recorded as paid; every page checked with axe.
// Screenshots: docs/screenshots/app-person-new.png, app-adoption-journey.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp } from '../../../test/harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';

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

test('walk-in, public application, stages, contract, finalize, fee paid: all in the staff app', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York', currency: 'USD', country: 'US' });
  const base = bench.base(org);
  const made = async (method: string, url: string, body: Record<string, unknown>) => {
    const r = await org.req(method, url, { body });
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
  await made('POST', '/api/v1/people', {
    firstName: 'Samantha',
    lastName: 'Walker',
    email: 'sam.walker@example.org',
    phone: '+14155550123',
  });
  const biscuit = await made('POST', '/api/v1/animals', {
    name: 'Biscuit (kennel 4)',
    publicName: 'Biscuit',
    species: 'dog',
    sex: 'male',
    status: 'Available',
    intakeDate: '2026-01-05',
    isPublic: true,
  });
  await made('POST', '/api/v1/animals', { name: 'Miso', species: 'cat', sex: 'female', status: 'Available', intakeDate: '2026-01-05' });
  await made('POST', '/api/forms', {
    name: 'Adoption application',
    slug: 'adopt',
    purpose: 'adoption_application',
    status: 'published',
    min_fill_seconds: 0,
    fields: [
      { key: 'first_name', label: 'First name', type: 'text', required: true },
      { key: 'last_name', label: 'Last name', type: 'text', required: true },
      { key: 'email', label: 'Email', type: 'email', required: true },
      { key: 'animal_name', label: 'Which animal are you applying for?', type: 'text' },
      { key: 'home_type', label: 'Home', type: 'select', options: ['House', 'Flat'], required: true },
    ],
  });
  await made('POST', '/api/animals/contract-templates', {
    name: 'Standard',
    title: 'Adoption contract for {{animal_name}}',
    body: 'I, {{full_name}}, adopt {{animal_name}} from {{org_name}}.',
  });

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });

  // 1. A walk-in: the form warns of Samantha (same phone, similar name) before saving; saved anyway, merge offered.
  await page.goto(`${base}/app/people`);
  await page.getByRole('heading', { name: 'People' }).waitFor();
  await axe(page, 'the people list');
  await page.getByRole('button', { name: 'Add a person' }).click();
  const add = page.getByRole('dialog', { name: 'Add a person' });
  await add.getByRole('textbox', { name: 'First name' }).fill('Sam');
  await add.getByRole('textbox', { name: 'Last name' }).fill('Walker');
  await add.getByRole('textbox', { name: 'Email' }).fill('sam@example.org');
  await add.getByRole('textbox', { name: 'Phone' }).fill('(415) 555-0123');
  await add.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'volunteer' }).click();
  await page.keyboard.press('Escape');
  await add.getByText('This may be someone already on file').waitFor();
  await add.getByText(/the same phone/).waitFor();
  await add.getByRole('link', { name: 'Samantha Walker' }).waitFor();
  await axe(page, 'the add-a-person form with its warning');
  await shot(page, 'person-new');
  await add.getByRole('button', { name: 'Add the person' }).click();
  await page.getByRole('heading', { name: 'Sam Walker' }).waitFor();
  await page.getByRole('table', { name: 'Contact' }).getByText('(415) 555-0123').waitFor();
  await page.getByText('May be the same person as').waitFor();
  await page.getByRole('button', { name: 'Merge into them…' }).waitFor();
  await axe(page, 'the new person page');
  const sam = (await org.req('GET', '/api/v1/people?q=sam@example.org')).body.data[0];
  assert.equal(sam.phone, '+14155550123');
  assert.deepEqual(sam.roles, ['volunteer']);

  // 2. The public site: the animal page's apply link opens the form with Biscuit chosen; nobody types its name.
  const visitor = await context.browser()?.newContext();
  assert.ok(visitor);
  const pub = await visitor.newPage();
  await pub.goto(`${base}/animals/${biscuit.id}/biscuit`);
  await pub.getByRole('link', { name: 'How to apply' }).click();
  await pub.getByText('Applying for').waitFor();
  assert.equal(await pub.getByLabel('Which animal are you applying for?').count(), 0);
  await pub.getByLabel('First name').fill('Pat');
  await pub.getByLabel('Last name').fill('Lindqvist');
  await pub.getByLabel('Email').fill('pat@example.org');
  await pub.getByRole('radio', { name: 'House' }).check();
  await axe(pub, 'the public adoption form');
  await pub.getByRole('button', { name: 'Send' }).click();
  await pub.getByText('Thank you').waitFor();

  // 3. Adoptions: the application is there, linked to Biscuit, with the form's answers; moved through the stages.
  await page.getByRole('link', { name: 'Adoptions' }).click();
  const apps = page.getByRole('table', { name: 'Adoption applications' });
  await apps.getByRole('link', { name: 'Biscuit (kennel 4)' }).waitFor();
  await axe(page, 'the applications list');
  await page.getByRole('button', { name: 'Open the application from Pat Lindqvist' }).click();
  const card = page.getByRole('region', { name: 'Application from Pat Lindqvist' });
  await card.getByRole('table', { name: 'Form answers' }).getByText('House').waitFor();
  await card.getByText('More info needed', { exact: true }).waitFor();
  await card.getByRole('combobox', { name: 'Or move to stage' }).click();
  await page.getByRole('option', { name: 'Pending home visit (open)' }).click();
  await card.getByRole('button', { name: 'Move' }).click();
  await card.getByText('Pending home visit', { exact: true }).waitFor();
  await card.getByRole('button', { name: 'Approve' }).click();
  await card.getByText('Decision: approved', { exact: false }).waitFor();
  // The contract: no email provider here, so the signing link is shown to copy; Pat signs it.
  await card.getByRole('combobox', { name: 'Contract template' }).click();
  await page.getByRole('option', { name: 'Standard (v1)' }).click();
  await card.getByRole('button', { name: 'Send the contract' }).click();
  await card.getByRole('button', { name: 'Copy the link' }).waitFor();
  await axe(page, 'an application with its signing link');
  const signing = new URL((await card.locator('pre').textContent()) ?? '');
  const adopter = await visitor.newPage();
  await adopter.goto(`${base}${signing.pathname}`);
  await adopter.getByLabel('Type your full name to sign').fill('Pat Lindqvist');
  await adopter.getByLabel('I have read this contract').check();
  await adopter.getByRole('button', { name: 'Sign' }).click();
  await adopter.waitForLoadState();
  await visitor.close();
  // The open application is in the address: a reload shows it again, signed.
  await page.reload();
  await card.getByRole('table', { name: 'Contracts' }).getByText('signed', { exact: true }).waitFor();

  // 4. Finalize: the signed contract is already chosen; the application then reads as adopted.
  await card.getByRole('button', { name: 'Finalize the adoption…' }).click();
  const fin = page.getByRole('dialog', { name: 'Finalize the adoption' });
  const chosen = fin.getByRole('combobox', { name: 'Signed contract' });
  await chosen.waitFor();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('input')].some((i) => i.value === 'Adoption contract for Biscuit (kennel 4), signed by Pat Lindqvist'),
  );
  await fin.getByRole('checkbox', { name: 'A different fee' }).check();
  await fin.getByRole('textbox', { name: 'Fee per animal' }).fill('150');
  await fin.getByRole('textbox', { name: 'Why the fee differs' }).fill('Weekend adoption event');
  await axe(page, 'the finalize form');
  await fin.getByRole('button', { name: 'Finalize the adoption' }).click();
  await page.getByText('Adopted: Biscuit (kennel 4)').waitFor();
  await card.getByText('Animal adopted', { exact: true }).waitFor();
  await card.getByText('Decision: adopted', { exact: false }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'adoption-journey');
  const application = (await org.req('GET', `/api/animals/adoption-applications?animal_id=${biscuit.id}`)).body.results[0];
  assert.equal(application.stage, 'Animal adopted');
  assert.equal(application.applicant_email, 'pat@example.org');
  const adoption = (await org.req('GET', `/api/animals/adoptions?animal_id=${biscuit.id}`)).body.results[0];
  const contract = (await org.req('GET', `/api/animals/signed-contracts?application_id=${application.id}`)).body.results[0];
  assert.equal(adoption.contract_id, contract.id);

  // 5. The fee paid: recorded from the adoptions list, a ledger entry linked to the adoption.
  await page.getByRole('tab', { name: 'Adoptions' }).click();
  await page.getByRole('button', { name: 'Record the fee paid for Biscuit (kennel 4)' }).click();
  const pay = page.getByRole('dialog', { name: 'Fee paid for Biscuit (kennel 4)' });
  await pay.getByRole('textbox', { name: 'Amount paid' }).fill('150');
  await pay.getByRole('combobox', { name: 'Paid by' }).click();
  await page.getByRole('option', { name: 'Cash' }).click();
  await pay.getByRole('textbox', { name: 'Receipt or note' }).fill('Receipt 0042');
  await axe(page, 'the fee-paid form');
  await pay.getByRole('button', { name: 'Record the payment' }).click();
  await page.getByRole('table', { name: 'Adoptions' }).getByText('paid in full').waitFor();
  await axe(page, 'the adoptions list');
  const paid = (await org.req('GET', `/api/animals/adoptions/${adoption.id}`)).body;
  assert.equal(paid.fee_paid_minor, 15000);
  assert.equal(paid.donation_ids.length, 1);
  const entry = (await org.req('GET', `/api/v1/donations/${paid.donation_ids[0]}`)).body;
  assert.deepEqual(
    [entry.amount, entry.currency, entry.paymentMethod, entry.type, entry.donorId, entry.animalId],
    [150, 'USD', 'cash', 'post-adoption', application.person_id, biscuit.id],
  );

  // 6. The walk-in applies for Miso from their own page; the person page shows their applications.
  await page.goto(`${base}/app/people/${sam.id}`);
  await page.getByRole('heading', { name: 'Sam Walker' }).waitFor();
  await page.getByRole('button', { name: 'Start an application' }).click();
  const start = page.getByRole('dialog', { name: 'Start an adoption application' });
  await start.getByRole('combobox', { name: 'Animal' }).click();
  await page.getByRole('option', { name: 'Miso (cat)' }).click();
  await axe(page, 'the start-an-application form');
  await start.getByRole('button', { name: 'Start the application' }).click();
  await page.getByRole('region', { name: 'Application from Sam Walker' }).waitFor();
  await page.goto(`${base}/app/people/${sam.id}`);
  await page.getByRole('tab', { name: 'Adoptions' }).click();
  await page.getByRole('table', { name: 'Adoption applications' }).getByRole('link', { name: 'Miso', exact: true }).waitFor();
  await axe(page, "the person's adoptions");
  await context.close();
  assert.deepEqual(errors, []);
});
