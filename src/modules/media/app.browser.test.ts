// The staff app's uploads, messages from templates, form building and the rest of Reports in a real Chromium
// (Debian's chromium driven by playwright-core): photos and documents uploaded on the animal page, a message
// sent from a template on the person page, a form built and changed, the SAC months submitted and a scheduled
// report changed and deleted. Every page is checked with axe; what the app writes is checked through the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
import { makeOrg, testApp, type TestApp } from '../../../test/harness.ts';
import { fakeProvider, type FakeProvider } from '../communications/testing.ts';

let t: TestApp;
let provider: FakeProvider;
let bench: BrowserBench;
before(async () => {
  // A mail provider, so that a message sent from the app goes out.
  provider = await fakeProvider({ name: 'good' });
  bench = await startBrowser(() => testApp({ smtpProviders: provider.url }));
  t = bench.t;
});
after(async () => {
  await bench?.close();
  await t?.close();
  await provider?.close();
});

/** Chooses a file for the Mantine file field named `label` through the browser's file chooser. */
async function chooseFile(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: label }).click()]);
  await chooser.setFiles(file);
}
const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 480, height: 360, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

test('a member uploads photos and documents, sends from a template, builds a form, reads SAC submissions, changes schedules', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(org);
  const made = async (method: string, url: string, body?: Record<string, unknown>) => {
    const r = await org.req(method, url, body ? { body } : {});
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
  const today = new Date().toISOString().slice(0, 10);
  const now = new Date();
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10));
  const lastMonth = last.toISOString().slice(0, 7);
  const pat = await made('POST', '/api/v1/people', {
    firstName: 'Pat',
    lastName: 'Lindqvist',
    email: 'pat@example.org',
    roles: ['adopter'],
  });
  const biscuit = await made('POST', '/api/v1/animals', { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: today });
  const welcome = await made('POST', '/api/communications/templates', {
    key: 'welcome',
    name: 'Welcome home',
    subject_template: 'Welcome home, {{first_name}}',
    body_template: 'Dear {{first_name}},\n\nThank you for giving {{animal_name}} a home.',
  });
  await made('POST', `/api/communications/templates/${welcome.id}/activate`);
  // Last month was submitted to SAC with no dogs; a dog recorded afterwards as come in then makes it differ.
  await made('POST', '/api/reports/sac/submissions', { month: lastMonth, species_group: 'dogs' });
  await made('POST', '/api/v1/animals', { name: 'Rex', species: 'dog', status: 'Available', intakeDate: last.toISOString().slice(0, 10) });
  await made('POST', '/api/reports/schedules', {
    name: 'Monthly intakes',
    report: 'intakes',
    format: 'csv',
    recipients: ['board@example.org'],
    day_of_month: 1,
  });
  // A published form whose address the new form will try to take.
  await made('POST', '/api/forms', {
    name: 'Volunteer with us',
    slug: 'volunteer',
    purpose: 'volunteer_application',
    status: 'published',
    fields: [{ key: 'email', label: 'Email', type: 'email', required: true, help_text: 'We write about shifts only', section: 'Contact' }],
  });

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });

  // Photos: a file that is not a picture refused with the API's sentence; two photos uploaded.
  await page.goto(`${base}/app/animals/${biscuit.id}`);
  await page.getByRole('tab', { name: 'Photos' }).click();
  await page.getByText('No photos yet: upload the first one below').waitFor();
  await page.getByText('No documents yet: upload').waitFor();
  await chooseFile(page, 'Photo file', { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture at all') });
  await page.getByRole('button', { name: 'Upload the photo' }).click();
  await page.getByText('file must be a JPEG, PNG, WebP, AVIF or HEIC image').waitFor();
  await axe(page, 'the photos tab with a refused file');
  await chooseFile(page, 'Photo file', { name: 'garden.png', mimeType: 'image/png', buffer: await png(200, 140, 60) });
  await page.getByRole('textbox', { name: 'Caption' }).fill('In the garden');
  await page.getByRole('checkbox', { name: /^Public: shown on the website/ }).check();
  await page.getByRole('button', { name: 'Upload the photo' }).click();
  const garden = page.getByRole('article', { name: 'Photo In the garden' });
  await garden.getByText('primary').waitFor();
  await garden.getByText('public', { exact: true }).waitFor();
  await chooseFile(page, 'Photo file', { name: 'asleep.png', mimeType: 'image/png', buffer: await png(60, 90, 160) });
  await page.getByRole('textbox', { name: 'Caption' }).fill('Asleep');
  await page.getByRole('button', { name: 'Upload the photo' }).click();
  const asleep = page.getByRole('article', { name: 'Photo Asleep' });
  await asleep.getByText('staff only').waitFor();
  // Asleep made primary and public.
  await asleep.getByRole('button', { name: 'Make Asleep the primary photo' }).click();
  await asleep.getByText('primary').waitFor();
  // The box follows the API's answer (it stays as it was when the change is refused).
  await asleep.getByRole('checkbox', { name: 'Asleep: public' }).click();
  await asleep.getByText('public', { exact: true }).waitFor();
  let photos = (await org.req('GET', `/api/animals/${biscuit.id}/photos`)).body.results;
  assert.deepEqual(
    photos.map((p: any) => [p.caption, p.is_primary, p.is_public, p.filename, p.content_type]),
    [
      ['Asleep', true, true, 'asleep.png', 'image/png'],
      ['In the garden', false, true, 'garden.png', 'image/png'],
    ],
  );
  // The thumbnails load through the session (the pictures are not public paths).
  await page.waitForFunction(() => [...document.querySelectorAll('article img')].every((i) => (i as HTMLImageElement).naturalWidth > 0));
  // A document: a vaccination record as a PDF, kind medical.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  await chooseFile(page, 'Document file', { name: 'vaccines.pdf', mimeType: 'application/pdf', buffer: pdf });
  await page.getByRole('textbox', { name: 'Title' }).fill('Vaccination record');
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Medical' }).click();
  await page.getByRole('button', { name: 'Upload the document' }).click();
  await page.getByRole('table', { name: 'Documents' }).getByRole('link', { name: 'Vaccination record' }).waitFor();
  const docs = (await org.req('GET', `/api/animals/${biscuit.id}/documents`)).body.results;
  assert.deepEqual(
    docs.map((d: any) => [d.title, d.kind, d.content_type, d.filename]),
    [['Vaccination record', 'medical', 'application/pdf', 'vaccines.pdf']],
  );
  await axe(page, 'the photos tab');
  await page.getByRole('heading', { name: 'Photos', exact: true }).scrollIntoViewIfNeeded();
  await shot(page, 'animal-photos');
  // The garden photo deleted after the confirmation (kept when the member says so first).
  await garden.getByRole('button', { name: 'Delete In the garden' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the photo?' });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await confirm.waitFor({ state: 'hidden' });
  assert.equal((await org.req('GET', `/api/animals/${biscuit.id}/photos`)).body.results.length, 2, 'kept');
  await garden.getByRole('button', { name: 'Delete In the garden' }).click();
  await axe(page, 'the delete confirmation');
  await confirm.getByRole('button', { name: 'Delete the photo' }).click();
  await garden.waitFor({ state: 'detached' });
  photos = (await org.req('GET', `/api/animals/${biscuit.id}/photos`)).body.results;
  assert.deepEqual(
    photos.map((p: any) => [p.caption, p.is_primary]),
    [['Asleep', true]],
  );
  // The document deleted (admin on Animals) after its confirmation.
  await page.getByRole('button', { name: 'Delete Vaccination record' }).click();
  await page.getByRole('dialog', { name: 'Delete the document?' }).getByRole('button', { name: 'Delete the document' }).click();
  await page.getByText('No documents yet: upload').waitFor();
  assert.equal((await org.req('GET', `/api/animals/${biscuit.id}/documents`)).body.results.length, 0);

  // A message from a template: the preview filled from Pat, Biscuit chosen for the animal's name, sent.
  await page.goto(`${base}/app/people/${pat.id}`);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await page.getByText('No messages to or from this person').waitFor();
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'Welcome home' }).click();
  const preview = page.getByRole('region', { name: 'Message preview' });
  await preview.getByText('Welcome home, Pat').waitFor();
  await page.getByText('Nothing on file fills {{animal_name}}').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send the message' }).isDisabled(), true, 'not sent with a merge field left');
  await page.getByRole('combobox', { name: 'About the animal (optional)' }).click();
  await page.getByRole('option', { name: /^Biscuit \(dog, / }).click();
  await preview.getByText('Thank you for giving Biscuit a home.').waitFor();
  await axe(page, 'a message from a template');
  await shot(page, 'person-message');
  await page.getByRole('button', { name: 'Send the message' }).click();
  await page.getByRole('table', { name: 'Messages' }).getByText('Welcome home, Pat').waitFor();
  const sentLog = (await org.req('GET', `/api/communications/messages?person_id=${pat.id}`)).body.results;
  assert.deepEqual(
    sentLog.map((m: any) => [m.subject, m.recipient_address, m.template_id]),
    [['Welcome home, Pat', 'pat@example.org', welcome.id]],
  );

  // Forms: a foster form built (its address first refused as taken), changed, published; the volunteer form unpublished.
  await page.getByRole('link', { name: 'Forms' }).click();
  await page.getByRole('table', { name: 'Forms' }).getByText('Volunteer with us').waitFor();
  await page.getByRole('button', { name: 'Build a form' }).click();
  const builder = page.getByRole('dialog', { name: 'Build a form' });
  await builder.getByRole('textbox', { name: 'Name' }).fill('Volunteer');
  assert.equal(await builder.getByRole('textbox', { name: 'Public address' }).inputValue(), 'volunteer', 'the address follows the name');
  await builder.getByRole('textbox', { name: 'Name' }).fill('Foster with us');
  await builder.getByRole('textbox', { name: 'Public address' }).fill('volunteer');
  await builder.getByRole('combobox', { name: 'Purpose' }).click();
  await page.getByRole('option', { name: 'Foster application' }).click();
  await builder.getByRole('button', { name: 'Add a field' }).click();
  await builder.getByRole('textbox', { name: 'Field 4 label' }).fill('Do you have a garden?');
  assert.equal(await builder.getByRole('textbox', { name: 'Field 4 key' }).inputValue(), 'do_you_have_a_garden');
  await builder.getByRole('textbox', { name: 'Field 4 key' }).fill('garden');
  await builder.getByRole('combobox', { name: 'Field 4 type' }).click();
  await page.getByRole('option', { name: 'Yes or no' }).click();
  await builder.getByRole('checkbox', { name: 'Field 4 required' }).check();
  await builder.getByRole('button', { name: 'Add a field' }).click();
  await builder.getByRole('textbox', { name: 'Field 5 label' }).fill('Which animals?');
  await builder.getByRole('combobox', { name: 'Field 5 type' }).click();
  await page.getByRole('option', { name: 'Several choices' }).click();
  await builder.getByRole('textbox', { name: 'Field 5 choices' }).fill('Dogs\nCats\nRabbits');
  await builder.getByRole('button', { name: 'Build the form' }).click();
  const slugField = builder.getByRole('textbox', { name: 'Public address' });
  await builder.getByText('slug is already used by another form').waitFor();
  assert.equal(await slugField.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the address field');
  await axe(page, 'the form builder');
  await builder.getByRole('textbox', { name: 'Name' }).scrollIntoViewIfNeeded();
  await shot(page, 'forms-builder');
  await slugField.fill('foster');
  await builder.getByRole('button', { name: 'Build the form' }).click();
  await builder.waitFor({ state: 'hidden' });
  await page.getByRole('table', { name: 'Forms' }).getByText('Foster with us').waitFor();
  let foster = (await org.req('GET', '/api/forms?purpose=foster_application')).body.results[0];
  assert.deepEqual(
    [foster.name, foster.slug, foster.status, foster.fields.map((f: any) => [f.key, f.label, f.type, f.required, f.options])],
    [
      'Foster with us',
      'foster',
      'draft',
      [
        ['first_name', 'First name', 'text', true, []],
        ['last_name', 'Last name', 'text', true, []],
        ['email', 'Email', 'email', true, []],
        ['garden', 'Do you have a garden?', 'boolean', true, []],
        ['which_animals', 'Which animals?', 'multiselect', false, ['Dogs', 'Cats', 'Rabbits']],
      ],
    ],
  );
  // Changed: the choices field moved up above the garden, a label reworded, the last name removed.
  await page.getByRole('button', { name: 'Change Foster with us' }).click();
  const change = page.getByRole('dialog', { name: 'Change Foster with us' });
  await change.getByRole('button', { name: 'Move field 5 up' }).click();
  await change.getByRole('textbox', { name: 'Field 5 label' }).fill('Do you have a fenced garden?');
  await change.getByRole('button', { name: 'Remove field 2' }).click();
  await change.getByRole('button', { name: 'Save the form' }).click();
  await change.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Publish Foster with us' }).click();
  await page.getByRole('button', { name: 'Unpublish Foster with us' }).waitFor();
  await page.getByRole('button', { name: 'Unpublish Volunteer with us' }).click();
  await page.getByRole('button', { name: 'Publish Volunteer with us' }).waitFor();
  // Changing a form built through the API keeps its fields' help text and sections (the builder does not edit them).
  await page.getByRole('button', { name: 'Change Volunteer with us' }).click();
  const volunteer = page.getByRole('dialog', { name: 'Change Volunteer with us' });
  await volunteer.getByRole('textbox', { name: 'Field 1 label' }).fill('Your email');
  await volunteer.getByRole('button', { name: 'Save the form' }).click();
  await volunteer.waitFor({ state: 'hidden' });
  foster = (await org.req('GET', `/api/forms/${foster.id}`)).body;
  assert.deepEqual(
    [foster.status, foster.fields.map((f: any) => f.label)],
    ['published', ['First name', 'Email', 'Which animals?', 'Do you have a fenced garden?']],
  );
  const forms = (await org.req('GET', '/api/forms')).body.results;
  const vol = forms.find((f: any) => f.slug === 'volunteer');
  assert.deepEqual(
    [vol.status, vol.fields.map((f: any) => [f.label, f.help_text, f.section])],
    ['draft', [['Your email', 'We write about shifts only', 'Contact']]],
  );
  await axe(page, 'the forms page with the builder buttons');

  // Reports: the SAC month submitted and what differs today; the schedule changed, then deleted.
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('tab', { name: 'SAC submissions' }).click();
  const subs = page.getByRole('table', { name: 'SAC submissions' });
  await subs.getByRole('row', { name: new RegExp(`^${lastMonth} dogs`) }).waitFor();
  await page.getByRole('button', { name: `Open ${lastMonth} dogs` }).click();
  const diffs = page.getByRole('table', { name: 'Differences since submitted' });
  await diffs
    .getByRole('row', { name: /intakes.* 0 1$/i })
    .first()
    .waitFor();
  const apiSub = (await org.req('GET', '/api/reports/sac/submissions')).body.results[0];
  const detail = (await org.req('GET', `/api/reports/sac/submissions/${apiSub.id}`)).body;
  assert.ok(detail.differences.length > 0);
  assert.equal(await diffs.getByRole('row').count(), detail.differences.length + 1, 'a header and each difference');
  await axe(page, 'the SAC submissions');
  await page.getByRole('tab', { name: 'Scheduled reports' }).click();
  await page.getByRole('table', { name: 'Scheduled reports' }).getByText('Monthly intakes').waitFor();
  await page.getByRole('button', { name: 'Change Monthly intakes' }).click();
  const edit = page.getByRole('dialog', { name: 'Change Monthly intakes' });
  await edit.getByRole('textbox', { name: 'Name' }).fill('Intakes for the board');
  await edit.getByRole('textbox', { name: 'Recipients' }).fill('board@example.org, chair@example.org');
  await edit.getByRole('textbox', { name: 'Day of month' }).fill('5');
  await axe(page, 'changing a scheduled report');
  await edit.getByRole('button', { name: 'Save the schedule' }).click();
  await page.getByRole('table', { name: 'Scheduled reports' }).getByText('Intakes for the board').waitFor();
  const schedules = (await org.req('GET', '/api/reports/schedules')).body.results;
  assert.deepEqual(
    schedules.map((s: any) => [s.name, s.report, s.format, s.recipients, s.day_of_month]),
    [['Intakes for the board', 'intakes', 'csv', ['board@example.org', 'chair@example.org'], 5]],
  );
  await page.getByRole('button', { name: 'Delete Intakes for the board' }).click();
  await page.getByRole('dialog', { name: 'Delete Intakes for the board?' }).getByRole('button', { name: 'Delete the schedule' }).click();
  await page.getByText('No scheduled reports yet').waitFor();
  assert.equal((await org.req('GET', '/api/reports/schedules')).body.results.length, 0);

  await context.close();
  assert.deepEqual(errors, []);
});
