// The staff app's later areas in a real Chromium (Debian's chromium driven by playwright-core): reports,
// housing, events, forms and partners, each screen with records made through the API; every page is
// checked with axe (no serious or critical violations); screenshots go to docs/screenshots/app-*.png.
// What the app writes is checked through the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';
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

test('a member runs a report, houses an animal, creates an event, converts a form submission and adds a partner', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(org);
  const made = async (method: string, url: string, body: Record<string, unknown>) => {
    const r = await org.req(method, url, { body });
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
  const today = new Date().toISOString().slice(0, 10);
  await made('POST', '/api/v1/people', { firstName: 'Pat', lastName: 'Lindqvist', email: 'pat@example.org', roles: ['volunteer'] });
  // Two dogs and two cats came in today: this year's intakes report counts them.
  const biscuit = await made('POST', '/api/v1/animals', { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: today });
  await made('POST', '/api/v1/animals', { name: 'Rex', species: 'dog', status: 'Available', intakeDate: today });
  await made('POST', '/api/v1/animals', { name: 'Mittens', species: 'cat', status: 'Available', intakeDate: today });
  // Pepper went home to her owner and came back in as a stray: a second intake, of another type.
  const pepper = await made('POST', '/api/v1/animals', { name: 'Pepper', species: 'cat', status: 'Available', intakeDate: today });
  await made('POST', `/api/animals/${pepper.id}/outcomes`, {
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    type: 'return_to_owner',
  });
  await made('POST', `/api/animals/${pepper.id}/intakes`, { occurred_at: new Date().toISOString(), type: 'stray' });
  // A volunteer form, published, and one submission through its public address.
  const form = await made('POST', '/api/forms', {
    name: 'Volunteer with us',
    slug: 'volunteer',
    purpose: 'volunteer_application',
    status: 'published',
    min_fill_seconds: 0,
    fields: [
      { key: 'first_name', label: 'First name', type: 'text', required: true },
      { key: 'last_name', label: 'Last name', type: 'text', required: true },
      { key: 'email', label: 'Email', type: 'email', required: true },
      { key: 'availability', label: 'When can you help?', type: 'select', options: ['Weekdays', 'Weekends'] },
    ],
  });
  const started = (await org.req('GET', '/forms/volunteer/start', { key: null })).body.started;
  const sent = await org.req('POST', '/forms/volunteer/submit', {
    key: null,
    body: { answers: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', availability: 'Weekends' }, started },
  });
  assert.equal(sent.status, 201, sent.raw);

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });

  // Reports: the catalogue, the intakes report for this year, its chart and its CSV.
  await page.goto(`${base}/app/`);
  await page.getByRole('link', { name: 'Reports' }).click();
  const catalogue = page.getByRole('navigation', { name: 'Report catalogue' });
  await catalogue.getByRole('button', { name: 'Shelter Animals Count matrix' }).waitFor();
  await page.getByText('Choose the parameters and run the report').waitFor();
  await catalogue.getByRole('button', { name: 'Intakes', exact: true }).click();
  await page.getByRole('heading', { name: 'Intakes', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Run the report' }).click();
  const rows = page.getByRole('table', { name: 'Intakes' });
  const month = today.slice(0, 7);
  await rows.getByRole('row', { name: `${month} dogs dog other — 2` }).waitFor();
  await rows.getByRole('row', { name: `${month} cats cat other — 2` }).waitFor();
  await rows.getByRole('row', { name: `${month} cats cat stray — 1` }).waitFor();
  assert.equal(await rows.getByRole('row').count(), 4, 'a header and three rows');
  await page.getByText('5 in all.').waitFor();
  await page.getByRole('img', { name: 'Bar chart: other 4 animals, stray 1 animals' }).waitFor();
  const csvHref = await page.getByRole('link', { name: 'Download Intakes as CSV' }).getAttribute('href');
  assert.match(String(csvHref), /^\/api\/reports\/intakes\?from=\d{4}-01-01&to=\d{4}-\d\d-\d\d&format=csv$/);
  // The file as the link fetches it (the browser's cookie; the node side cannot resolve *.localhost).
  const csv = await page.evaluate(async (href) => {
    const r = await fetch(href);
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  }, String(csvHref));
  assert.equal(csv.status, 200);
  assert.match(String(csv.type), /text\/csv/);
  assert.match(csv.text, /dog/);
  await axe(page, 'the intakes report');
  await shot(page, 'reports');
  // The SAC matrix for this month: the three intakes in its rows.
  await catalogue.getByRole('button', { name: 'Shelter Animals Count matrix' }).click();
  await page.getByRole('button', { name: 'Run the report' }).click();
  await page
    .getByRole('table', { name: 'Shelter Animals Count matrix' })
    .getByRole('row', { name: /^Total intakes/ })
    .getByRole('cell', { name: '2' })
    .first()
    .waitFor();
  // This month cannot be kept as submitted yet: the API's sentence beside the button.
  await page.getByRole('button', { name: `Keep ${month} as submitted` }).click();
  await page.getByText(/must be a month that has ended/).waitFor();
  await axe(page, 'the SAC matrix');
  // A scheduled report added in the app.
  await page.getByRole('tab', { name: 'Scheduled reports' }).click();
  await page.getByText('No scheduled reports yet').waitFor();
  await page.getByRole('textbox', { name: 'Name' }).fill('Monthly SAC for the board');
  await page.getByRole('textbox', { name: 'Recipients' }).fill('board@example.org, vet@example.org');
  await axe(page, 'the scheduled reports');
  await page.getByRole('button', { name: 'Add the schedule' }).click();
  await page.getByRole('table', { name: 'Scheduled reports' }).getByText('Monthly SAC for the board').waitFor();
  const schedules = (await org.req('GET', '/api/reports/schedules')).body.results;
  assert.deepEqual(
    schedules.map((s: any) => [s.name, s.report, s.format, s.recipients]),
    [['Monthly SAC for the board', 'sac', 'pdf', ['board@example.org', 'vet@example.org']]],
  );

  // Housing: a location, a unit in it, and Biscuit moved in.
  await page.getByRole('link', { name: 'Housing' }).click();
  await page.getByText('No locations yet').waitFor();
  await page.getByRole('button', { name: 'Add a location' }).click();
  const addLoc = page.getByRole('dialog', { name: 'Add a location' });
  await addLoc.getByRole('textbox', { name: 'Name' }).fill('Main kennels');
  await axe(page, 'the add-a-location form');
  await addLoc.getByRole('button', { name: 'Add the location' }).click();
  await page.getByRole('heading', { name: 'Units at Main kennels' }).waitFor();
  await page.getByText('No units here yet').waitFor();
  await page.getByRole('button', { name: 'Add a unit' }).click();
  const addUnit = page.getByRole('dialog', { name: 'Add a unit at Main kennels' });
  await addUnit.getByRole('textbox', { name: 'Name' }).fill('Kennel 1');
  await addUnit.getByRole('textbox', { name: 'Animals it holds' }).fill('2');
  await addUnit.getByRole('button', { name: 'Add the unit' }).click();
  const unit = page.getByRole('article', { name: 'Unit Kennel 1' });
  await unit.getByText('0 of 2').waitFor();
  await page.getByRole('combobox', { name: 'Animal to move' }).click();
  await page.getByRole('option', { name: 'Biscuit (dog)' }).click();
  await page.getByRole('combobox', { name: 'Into unit' }).click();
  await page.getByRole('option', { name: 'Kennel 1 (2 free)' }).click();
  await page.getByRole('button', { name: 'Move the animal' }).click();
  await unit.getByRole('link', { name: 'Biscuit (dog)' }).waitFor();
  await unit.getByText('1 of 2').waitFor();
  await page.getByRole('table', { name: 'Locations' }).getByText('1 animal, 2 places in units').waitFor();
  await axe(page, 'the housing page');
  await shot(page, 'housing');
  const housed = await org.req('GET', `/api/v1/animals/${biscuit.id}`);
  const units = (await org.req('GET', '/api/animals/housing-units')).body.results;
  assert.equal(units.length, 1);
  assert.equal(housed.body.locationId, units[0].id, 'Biscuit lives in Kennel 1');

  // Events: an adoption day created in the app, Pat going with a guest, then published.
  await page.getByRole('link', { name: 'Events' }).click();
  await page.getByText('No events here').waitFor();
  await page.getByRole('button', { name: 'Create an event' }).click();
  const addEvent = page.getByRole('dialog', { name: 'Create an event' });
  await addEvent.getByRole('textbox', { name: 'Title' }).fill('Adoption day');
  await addEvent.getByLabel('Starts').fill('2030-06-15T10:00');
  await addEvent.getByLabel('Ends').fill('2030-06-15T14:00');
  await addEvent.getByRole('textbox', { name: 'Address' }).fill('Town square');
  await addEvent.getByRole('textbox', { name: 'Places' }).fill('20');
  await axe(page, 'the create-an-event form');
  await addEvent.getByRole('button', { name: 'Create the event' }).click();
  await page.getByRole('heading', { name: 'Adoption day' }).waitFor();
  await page.getByText('Nobody yet').waitFor();
  await page.getByRole('combobox', { name: 'Attendee' }).fill('Pat');
  await page.getByRole('option', { name: /Pat Lindqvist/ }).click();
  await page.getByRole('textbox', { name: 'Guests' }).fill('1');
  await page.getByRole('button', { name: 'Save the attendee' }).click();
  await page.getByRole('table', { name: 'Attendees' }).getByRole('link', { name: 'Pat Lindqvist' }).waitFor();
  await page.getByText('2 places taken of 20').waitFor();
  await page.getByRole('button', { name: 'Publish on the public calendar' }).click();
  await page.getByRole('table', { name: 'Events' }).getByText('public').waitFor();
  await axe(page, 'the events page');
  await shot(page, 'events');
  const events = (await org.req('GET', '/api/v1/events')).body.data;
  assert.deepEqual(
    events.map((e: any) => [e.title, e.placesTaken, e.capacity, e.published, e.location?.address]),
    [['Adoption day', 2, 20, true, 'Town square']],
  );
  assert.equal(new Date(events[0].startsAt).toISOString(), '2030-06-15T10:00:00.000Z');

  // Forms: the volunteer form, Ada's submission opened and converted to a person.
  await page.getByRole('link', { name: 'Forms' }).click();
  await page.getByRole('table', { name: 'Forms' }).getByText('Volunteer with us').waitFor();
  await page.getByRole('button', { name: 'Open the submission from Ada Lovelace' }).click();
  const answers = page.getByRole('table', { name: 'Answers' });
  await answers.getByRole('row', { name: 'When can you help? Weekends' }).waitFor();
  await axe(page, 'a form submission');
  await page.getByRole('button', { name: 'Convert to a person' }).click();
  await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  await shot(page, 'forms');
  const sub = (await org.req('GET', `/api/forms/submissions?form_id=${form.id}`)).body.results[0];
  assert.equal(sub.status, 'converted');
  const ada = await org.req('GET', `/api/v1/people/${sub.person_id}`);
  assert.deepEqual([ada.body.firstName, ada.body.email, ada.body.roles], ['Ada', 'ada@example.org', ['volunteer']]);
  await page.getByText('No new submissions').waitFor();

  // Partners: a vet clinic added.
  await page.getByRole('link', { name: 'Partners' }).click();
  await page.getByText('No partners yet').waitFor();
  await page.getByRole('button', { name: 'Add a partner' }).click();
  const addPartner = page.getByRole('dialog', { name: 'Add a partner' });
  await addPartner.getByRole('textbox', { name: 'Name' }).fill('Hillside Vets');
  await addPartner.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'vet' }).click();
  await addPartner.getByRole('textbox', { name: 'Email' }).fill('desk@hillside.example');
  // A website that is not an address: the API's sentence under the field.
  const website = addPartner.getByRole('textbox', { name: 'Website' });
  await website.fill('hillside');
  await addPartner.getByRole('button', { name: 'Add the partner' }).click();
  await addPartner.locator('input[aria-invalid="true"]').waitFor();
  assert.equal(await website.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the website field');
  await website.fill('https://hillside.example');
  await axe(page, 'the add-a-partner form');
  await addPartner.getByRole('button', { name: 'Add the partner' }).click();
  await page.getByRole('table', { name: 'Partners' }).getByText('Hillside Vets').waitFor();
  await axe(page, 'the partners page');
  await shot(page, 'partners');
  const partners = (await org.req('GET', '/api/partners')).body.results;
  assert.deepEqual(
    partners.map((p: any) => [p.name, p.kind, p.email, p.website]),
    [['Hillside Vets', 'vet', 'desk@hillside.example', 'https://hillside.example']],
  );

  // A 768 px tablet: the housing page holds.
  await page.setViewportSize({ width: 768, height: 1024 });
  // Below 992 px the navigation is behind the menu button.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Housing' }).click();
  await page.getByRole('button', { name: 'Units at Main kennels' }).click();
  await page.getByRole('article', { name: 'Unit Kennel 1' }).getByText('1 of 2').waitFor();
  await axe(page, 'the housing page at 768 px');
  await context.close();
  assert.deepEqual(errors, []);

  // A role that reads Animals only sees Housing among these links, and the housing page without its buttons.
  const reader = await org.sessionWith({ animals: 'read' });
  const { context: other, page: look } = await openPage(bench, { org, session: reader.session, timezoneId: 'UTC' });
  await look.goto(`${base}/app/housing`);
  await look.getByRole('table', { name: 'Locations' }).getByText('Main kennels').waitFor();
  const nav = look.getByRole('navigation', { name: 'Main' });
  assert.equal(await nav.getByRole('link', { name: 'Housing' }).count(), 1);
  for (const name of ['Reports', 'Events', 'Forms', 'Partners']) assert.equal(await nav.getByRole('link', { name }).count(), 0, name);
  assert.equal(await look.getByRole('button', { name: 'Add a location' }).count(), 0);
  await other.close();
});
