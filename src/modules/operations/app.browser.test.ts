// The staff app's changes to places, events and partners in a real Chromium (test/browser.ts): housing
// (rename, a unit's capacity, retire and bring back locations and units), an event (changed, a campaign and
// animals linked, cancelled after a confirmation) and a partner's locations and affiliations. Records are made
// through the API first; what the app writes is checked through the API; a refused change shows the API's
// sentence at its field; every page and form is checked with axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
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

/** The field is marked invalid and the API's sentence is shown in the field's own wrapper, under it. */
async function refusedAt(field: Locator, sentence: RegExp) {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
  await field.locator('xpath=ancestor::div[contains(@class, "InputWrapper-root")][1]').getByText(sentence).waitFor();
}

test('a member changes and retires housing, changes and cancels an event, and keeps a partner’s locations and affiliations', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const base = bench.base(org);
  const made = async (method: string, url: string, body: Record<string, unknown>) => {
    const r = await org.req(method, url, { body });
    assert.ok(r.status < 300, `${method} ${url}: ${r.raw}`);
    return r.body;
  };
  const pat = await made('POST', '/api/v1/people', { firstName: 'Pat', lastName: 'Lindqvist', email: 'pat@example.org' });
  const ann = await made('POST', '/api/v1/people', { firstName: 'Ann', lastName: 'Herriot', email: 'ann@hillside.example' });
  const main = await made('POST', '/api/animals/locations', { name: 'Main kennels', type: 'building' });
  const barn = await made('POST', '/api/animals/locations', { name: 'Old barn', type: 'building' });
  const k1 = await made('POST', '/api/animals/housing-units', { location_id: main.id, name: 'Kennel 1', type: 'kennel', capacity: 2 });
  const k2 = await made('POST', '/api/animals/housing-units', { location_id: main.id, name: 'Kennel 2', type: 'kennel', capacity: 1 });
  const today = new Date().toISOString().slice(0, 10);
  const biscuit = await made('POST', '/api/v1/animals', {
    name: 'Biscuit',
    species: 'dog',
    status: 'Available',
    intakeDate: today,
    locationId: k1.id,
  });
  await made('POST', '/api/v1/animals', { name: 'Rex', species: 'dog', status: 'Available', intakeDate: today, locationId: k1.id });
  const campaign = await made('POST', '/api/fundraising/campaigns', { name: 'Winter kennels', currency: 'USD', goal: 1000 });
  const event = await made('POST', '/api/v1/events', {
    title: 'Adoption day',
    startsAt: '2030-06-15T10:00:00Z',
    endsAt: '2030-06-15T14:00:00Z',
    capacity: 20,
    location: { type: 'address', id: null, address: 'Town square' },
  });
  await org.req('PUT', `/api/v1/events/${event.id}/attendees/${pat.id}`, { body: { rsvp: 'going', guests: 1 } });
  await made('POST', `/api/v1/events/${event.id}/publish`, {});
  const vets = await made('POST', '/api/partners', { name: 'Hillside Vets', kind: 'vet' });

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });

  // Housing: every location with its units in one request.
  await page.goto(`${base}/app/housing`);
  await page.getByRole('button', { name: 'Units at Main kennels' }).click();
  const kennel1 = page.getByRole('article', { name: 'Unit Kennel 1' });
  await kennel1.getByText('2 of 2').waitFor();
  // A capacity below the two animals in it: the API's sentence under the field.
  await kennel1.getByRole('button', { name: 'Change Kennel 1' }).click();
  const editUnit = page.getByRole('dialog', { name: 'Change Kennel 1' });
  const holds = editUnit.getByRole('textbox', { name: 'Animals it holds' });
  await holds.fill('1');
  await editUnit.getByRole('button', { name: 'Save the unit' }).click();
  await refusedAt(holds, /cannot be below the 2 animal\(s\) housed here now/);
  await axe(page, 'the change-a-unit form with a refusal');
  await holds.fill('4');
  await editUnit.getByRole('textbox', { name: 'Name' }).fill('Kennel A');
  await editUnit.getByRole('button', { name: 'Save the unit' }).click();
  const kennelA = page.getByRole('article', { name: 'Unit Kennel A' });
  await kennelA.getByText('2 of 4').waitFor();
  const unitA = (await org.req('GET', `/api/animals/housing-units/${k1.id}`)).body;
  assert.deepEqual([unitA.name, unitA.capacity, unitA.occupant_count], ['Kennel A', 4, 2]);
  // Retiring a unit with animals in it is refused, and the sentence is shown in its card.
  await kennelA.getByRole('button', { name: 'Retire Kennel A' }).click();
  await kennelA.getByText('2 animal(s) are still housed here; move them first').waitFor();
  // The empty one retires: named as retired, with a way back.
  await page.getByRole('article', { name: 'Unit Kennel 2' }).getByRole('button', { name: 'Retire Kennel 2' }).click();
  const retiredUnits = page.getByRole('group', { name: 'Retired units' });
  await retiredUnits.getByText('Kennel 2 (kennel, 1 place)').waitFor();
  await retiredUnits.getByText('retired', { exact: true }).waitFor();
  assert.equal(await page.getByRole('article', { name: 'Unit Kennel 2' }).count(), 0, 'a retired unit leaves the cards');
  assert.equal((await org.req('GET', `/api/animals/housing-units/${k2.id}`)).body.is_active, false);
  // The location renamed, with an address.
  await page.getByRole('button', { name: 'Change the location' }).click();
  const editLoc = page.getByRole('dialog', { name: 'Change Main kennels' });
  await editLoc.getByRole('textbox', { name: 'Name' }).fill('Old barn');
  await editLoc.getByRole('button', { name: 'Save the location' }).click();
  // A name another location has: Family B's sentence does not start with the field's name, so it stands above the button.
  await editLoc.getByRole('alert').getByText('A location named Old barn already exists.').waitFor();
  await editLoc.getByRole('textbox', { name: 'Name' }).fill('North kennels');
  await editLoc.getByRole('textbox', { name: 'Address' }).fill('1 Kennel Lane');
  await axe(page, 'the change-a-location form');
  await editLoc.getByRole('button', { name: 'Save the location' }).click();
  await page.getByRole('heading', { name: 'Units at North kennels' }).waitFor();
  await page.getByRole('table', { name: 'Locations' }).getByText('1 Kennel Lane').waitFor();
  const north = (await org.req('GET', `/api/animals/locations/${main.id}`)).body;
  assert.deepEqual([north.name, north.address, north.is_active], ['North kennels', '1 Kennel Lane', true]);
  await axe(page, 'the housing page with a retired unit');
  await shot(page, 'housing-edit');
  // Kennel 2 back in use.
  await retiredUnits.getByRole('button', { name: 'Bring Kennel 2 back into use' }).click();
  await page.getByRole('article', { name: 'Unit Kennel 2' }).waitFor();
  assert.equal((await org.req('GET', `/api/animals/housing-units/${k2.id}`)).body.is_active, true);
  // The old barn retired: marked in the list and on its card; no units can be added there.
  await page.getByRole('button', { name: 'Units at Old barn' }).click();
  await page.getByRole('button', { name: 'Retire the location' }).click();
  await page.getByRole('button', { name: 'Bring back into use' }).waitFor();
  await page
    .getByRole('table', { name: 'Locations' })
    .getByRole('row', { name: /Old barn\s*retired/ })
    .waitFor();
  assert.equal(await page.getByRole('button', { name: 'Add a unit' }).count(), 0);
  assert.equal((await org.req('GET', `/api/animals/locations/${barn.id}`)).body.is_active, false);
  await axe(page, 'a retired location');

  // Events: change the adoption day, link the campaign and animals, then cancel it.
  await page.getByRole('link', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Open Adoption day' }).click();
  await page.getByRole('heading', { name: 'Adoption day' }).waitFor();
  await page.getByText('None yet: link animals in care below.').waitFor();
  await page.getByRole('button', { name: 'Change the event' }).click();
  const editEvent = page.getByRole('dialog', { name: 'Change Adoption day' });
  const places = editEvent.getByRole('textbox', { name: 'Places' });
  await editEvent.getByRole('textbox', { name: 'Title' }).fill('Summer adoption day');
  await editEvent.getByRole('combobox', { name: 'Campaign' }).click();
  await page.getByRole('option', { name: 'Winter kennels' }).click();
  await places.fill('1');
  await editEvent.getByRole('button', { name: 'Save the event' }).click();
  await refusedAt(places, /cannot be below the 2 places already taken/);
  await axe(page, 'the change-an-event form with a refusal');
  await shot(page, 'event-edit');
  assert.equal((await org.req('GET', `/api/v1/events/${event.id}`)).body.title, 'Adoption day', 'a refused change changes nothing');
  await places.fill('30');
  await editEvent.getByRole('button', { name: 'Save the event' }).click();
  await page.getByRole('heading', { name: 'Summer adoption day' }).waitFor();
  await page.getByText('For the campaign Winter kennels').waitFor();
  await page.getByText('2 places taken of 30').waitFor();
  for (const name of ['Biscuit (dog)', 'Rex (dog)']) {
    await page.getByRole('combobox', { name: 'Animal to bring' }).click();
    await page.getByRole('option', { name }).click();
    await page.getByRole('button', { name: 'Link the animal' }).click();
    await page.getByRole('link', { name }).waitFor();
  }
  await page.getByRole('button', { name: 'Remove Rex (dog) from the event' }).click();
  await page.getByRole('button', { name: 'Remove Rex (dog) from the event' }).waitFor({ state: 'detached' });
  let changed = (await org.req('GET', `/api/v1/events/${event.id}`)).body;
  assert.deepEqual(
    [changed.title, changed.capacity, changed.campaignId, changed.animalIds, changed.location?.address],
    ['Summer adoption day', 30, campaign.id, [biscuit.id], 'Town square'],
  );
  assert.equal(new Date(changed.startsAt).toISOString(), '2030-06-15T10:00:00.000Z', 'the start did not move');
  await axe(page, 'an event with its animals');
  // Cancelling asks first, and says that Ark tells nobody.
  await page.getByRole('button', { name: 'Cancel the event' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel Summer adoption day?' });
  await confirm.getByText('Ark does not tell the 1 person on the list: let them know yourself.').waitFor();
  await confirm.getByText(/taken off the public calendar/).waitFor();
  await axe(page, 'the cancel-an-event confirmation');
  await confirm.getByRole('button', { name: 'Keep the event' }).click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal((await org.req('GET', `/api/v1/events/${event.id}`)).body.status, 'scheduled', 'keeping changes nothing');
  await page.getByRole('button', { name: 'Cancel the event' }).first().click();
  await confirm.getByRole('button', { name: 'Cancel the event' }).click();
  await page.getByText('cancelled', { exact: true }).first().waitFor();
  assert.equal(await page.getByRole('button', { name: 'Change the event' }).count(), 0, 'a cancelled event is not changed');
  changed = (await org.req('GET', `/api/v1/events/${event.id}`)).body;
  assert.deepEqual([changed.status, changed.published], ['cancelled', false]);

  // Partners: Hillside Vets' locations and the vet affiliated with it.
  await page.getByRole('link', { name: 'Partners' }).click();
  await page.getByRole('button', { name: 'Open Hillside Vets' }).click();
  const card = page.getByRole('region', { name: 'Hillside Vets' });
  await card.getByText('No locations yet: add one with “Add a location”.').waitFor();
  await card.getByText('Nobody yet: affiliate a person on file').waitFor();
  await card.getByRole('button', { name: 'Add a location' }).click();
  const addPlace = page.getByRole('dialog', { name: 'Add a location of Hillside Vets' });
  await addPlace.getByRole('textbox', { name: 'Address line 1' }).fill('12 Hill Road');
  await addPlace.getByRole('textbox', { name: 'City' }).fill('Springfield');
  const phone = addPlace.getByRole('textbox', { name: 'Phone' });
  await phone.fill('call us');
  await addPlace.getByRole('button', { name: 'Add the location' }).click();
  await refusedAt(phone, /^phone .*a phone number/);
  await axe(page, 'the add-a-partner-location form with a refusal');
  await phone.fill('(212) 555-0150');
  await addPlace.getByRole('button', { name: 'Add the location' }).click();
  const placesTable = card.getByRole('table', { name: 'Locations of Hillside Vets' });
  await placesTable.getByText('12 Hill Road, Springfield, US').waitFor();
  await placesTable.getByRole('button', { name: 'Change 12 Hill Road' }).click();
  const editPlace = page.getByRole('dialog', { name: 'Change 12 Hill Road' });
  await editPlace.getByRole('textbox', { name: 'Name of the place' }).fill('Main clinic');
  await editPlace.getByRole('textbox', { name: 'Opening hours' }).fill('Mon-Fri 9-17');
  await editPlace.getByRole('button', { name: 'Save the location' }).click();
  await placesTable.getByRole('row', { name: /Main clinic 12 Hill Road.*Mon-Fri 9-17/ }).waitFor();
  // A second location, then removed.
  await card.getByRole('button', { name: 'Add a location' }).click();
  await addPlace.getByRole('textbox', { name: 'Address line 1' }).fill('3 Low Street');
  await addPlace.getByRole('textbox', { name: 'City' }).fill('Shelbyville');
  await addPlace.getByRole('button', { name: 'Add the location' }).click();
  await placesTable.getByRole('button', { name: 'Remove 3 Low Street' }).click();
  await placesTable.getByText('3 Low Street').waitFor({ state: 'detached' });
  const where = (await org.req('GET', `/api/partners/${vets.id}/locations`)).body.results;
  assert.deepEqual(
    where.map((l: any) => [l.name, l.line1, l.city, l.country, l.phone, l.hours]),
    [['Main clinic', '12 Hill Road', 'Springfield', 'US', '+12125550150', 'Mon-Fri 9-17']],
  );
  // Ann affiliated as the vet: an end before the start is refused under Until.
  await card.getByRole('button', { name: 'Affiliate a person' }).click();
  const tie = page.getByRole('dialog', { name: 'Affiliate a person with Hillside Vets' });
  await tie.getByRole('combobox', { name: 'Person' }).fill('Ann');
  await page.getByRole('option', { name: /Ann Herriot/ }).click();
  await tie.getByRole('textbox', { name: 'Role' }).fill('vet');
  await tie.getByLabel('From').fill('2024-03-01');
  await tie.getByLabel('Until').fill('2024-01-01');
  await tie.getByRole('button', { name: 'Affiliate the person' }).click();
  await refusedAt(tie.getByLabel('Until'), /must not be before valid_from/);
  await axe(page, 'the affiliate-a-person form with a refusal');
  await tie.getByLabel('Until').fill('');
  await tie.getByRole('button', { name: 'Affiliate the person' }).click();
  const ties = card.getByRole('table', { name: 'People affiliated with Hillside Vets' });
  await ties.getByRole('row', { name: /Ann Herriot vet .*still affiliated/ }).waitFor();
  await ties.getByRole('button', { name: 'Change Ann Herriot as vet' }).click();
  const editTie = page.getByRole('dialog', { name: 'Change Ann Herriot as vet' });
  await editTie.getByRole('textbox', { name: 'Role' }).fill('head vet');
  await editTie.getByRole('button', { name: 'Save the affiliation' }).click();
  await ties.getByRole('link', { name: 'Ann Herriot' }).waitFor();
  await ties.getByRole('cell', { name: 'head vet', exact: true }).waitFor();
  const who = (await org.req('GET', `/api/partners/${vets.id}/affiliations`)).body.results;
  assert.deepEqual(
    who.map((a: any) => [a.person_id, a.role, a.valid_from, a.valid_until]),
    [[ann.id, 'head vet', '2024-03-01', null]],
  );
  await axe(page, 'a partner with its locations and affiliations');
  await shot(page, 'partner');
  // Removed again.
  await ties.getByRole('button', { name: 'Remove Ann Herriot as head vet' }).click();
  await card.getByText('Nobody yet: affiliate a person on file').waitFor();
  assert.deepEqual((await org.req('GET', `/api/partners/${vets.id}/affiliations`)).body.results, []);

  await context.close();
  assert.deepEqual(errors, []);
});
