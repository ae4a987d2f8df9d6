// The staff app's shell, mail and foster endings in a real Chromium (test/browser.ts): a template email about an
// animal adopted a minute ago, sent with no email provider set up (logged as not sent, and said so); a foster
// placement ended with its day, reason and destination after a confirmation; and the kennel-side widths (a phone at
// 375 px, a tablet at 768 px) where no page scrolls sideways and the header never covers the page's title.
// The organization is in Chicago and the browser in UTC: times are shown in Chicago time and say so.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DateTime } from 'luxon';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from '../../../test/browser.ts';

const ZONE = 'America/Chicago';

let t: TestApp;
let bench: BrowserBench;
before(async () => {
  // No ARK_SMTP_PROVIDERS: sending is not set up.
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

test('an email about an adopted animal, no provider: logged as not sent; foster placements ended with day and destination', async () => {
  const org = await makeOrg(t, { timeZone: ZONE, country: 'US' });
  const made = await maker(org);
  const base = bench.base(org);
  const pat = await made('POST', '/api/v1/people', {
    firstName: 'Pat',
    lastName: 'Lindqvist',
    email: 'pat@example.org',
    phone: '+13125550123',
  });
  for (const name of ['Alma', 'Bruno', 'Cleo'])
    await made('POST', '/api/v1/animals', { name, species: 'dog', status: 'Available', intakeDate: '2026-01-05' });
  const biscuit = await made('POST', '/api/v1/animals', { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: '2026-01-05' });
  await made('PATCH', `/api/v1/animals/${biscuit.id}`, { status: 'Adopted' });
  await made('POST', '/api/communications/templates', {
    key: 'adoption.follow_up',
    name: 'Adoption follow-up',
    status: 'active',
    subject_template: 'How is {{animal_name}} settling in?',
    body_template_blocks: [
      { type: 'p', runs: [{ text: 'Dear {{first_name}}, thank you for adopting {{animal_name}} from {{org_name}}.' }] },
    ],
  });

  const { session } = await org.sessionWith('admin');
  const { context, page, errors } = await openPage(bench, { org, session, timezoneId: 'UTC' });

  // The person's Messages tab: the animal picker finds the animal adopted a minute ago (it is no longer in care).
  await page.goto(`${base}/app/people/${pat.id}`);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'Adoption follow-up' }).click();
  const picker = page.getByRole('combobox', { name: 'About the animal (optional)' });
  await picker.click();
  // Most recently changed first: the adopted animal leads the list before anything is typed.
  await page
    .getByRole('option')
    .first()
    .getByText(/^Biscuit \(dog, adopted\)$/)
    .waitFor();
  await picker.fill('bisc');
  await page.getByRole('option', { name: 'Biscuit (dog, adopted)' }).click();
  const preview = page.getByRole('region', { name: 'Message preview' });
  await preview.getByText('How is Biscuit settling in?').waitFor();
  await preview.getByText(/thank you for adopting Biscuit from Test Rescue/).waitFor();
  assert.equal(await preview.getByText(/ani_/).count(), 0, 'no internal id in what the recipient reads');
  await page.getByRole('button', { name: 'Send the message' }).click();
  await page
    .getByRole('alert')
    .getByText(/^Not sent: no email provider is set up/)
    .waitFor();
  // The person's own list shows it at once, in the organization's time, named as Chicago's.
  const theirs = page.getByRole('table', { name: 'Messages' });
  await theirs.getByText('How is Biscuit settling in?').waitFor();
  await axe(page, "the person's Messages tab after a send with no provider");
  const logged = (await org.req('GET', `/api/communications/messages?person_id=${pat.id}`)).body.results;
  assert.equal(logged.length, 1);
  assert.deepEqual(
    [logged[0].status, logged[0].payload_metadata.reason, logged[0].subject],
    ['failed', 'no_provider', 'How is Biscuit settling in?'],
  );

  // The message log says why in words.
  await page.goto(`${base}/app/messages`);
  await page.getByRole('tab', { name: 'Message log' }).click();
  const log = page.getByRole('table', { name: 'Message log' });
  const row = log.getByRole('row').filter({ hasText: 'How is Biscuit settling in?' });
  await row.getByText('Not sent: no email provider is set up').waitFor();
  await row.getByText('failed', { exact: true }).waitFor();
  const whenText = (await row.getByRole('cell').first().innerText()).trim();
  const sentAt = DateTime.fromISO(logged[0].created_at).setZone(ZONE);
  assert.equal(whenText, `${sentAt.toFormat('d LLL yyyy, HH:mm')} Chicago time`);
  await axe(page, 'the message log');

  // Foster: ending a placement asks the day, where the animal goes and why, then confirms.
  const fay = await made('POST', '/api/v1/people', { firstName: 'Fay', lastName: 'Okafor', email: 'fay@example.org' });
  const gus = await made('POST', '/api/v1/people', { firstName: 'Gus', lastName: 'Moreau', email: 'gus@example.org' });
  const fayHome = (await made('POST', '/api/animals/foster-homes', { person_id: fay.id, capacity: 2 })).foster_home;
  const gusHome = (await made('POST', '/api/animals/foster-homes', { person_id: gus.id, capacity: 1 })).foster_home;
  const main = await made('POST', '/api/animals/locations', { name: 'Main kennels', type: 'shelter' });
  const k1 = await made('POST', '/api/animals/housing-units', { location_id: main.id, name: 'Kennel 1', type: 'kennel', capacity: 2 });
  const rex = await made('POST', '/api/v1/animals', {
    name: 'Rex',
    species: 'dog',
    status: 'Available',
    intakeDate: '2026-01-05',
    locationId: main.id,
  });
  const milo = await made('POST', '/api/v1/animals', { name: 'Milo', species: 'cat', status: 'Available', intakeDate: '2026-01-05' });
  const placed: Record<string, string> = {};
  for (const a of [rex, milo]) {
    const as = await made('POST', `/api/animals/foster-homes/${fayHome.id}/assignments`, { animal_id: a.id });
    await made('POST', `/api/animals/foster-assignments/${as.id}/start`, {});
    placed[a.name] = as.id;
  }
  await page.goto(`${base}/app/foster`);
  await page.getByRole('button', { name: 'Placements with Fay Okafor' }).click();
  await page.getByRole('button', { name: 'End fostering of Rex' }).click();
  const dialog = page.getByRole('dialog', { name: 'End fostering of Rex' });
  const today = DateTime.now().setZone(ZONE).toISODate() as string;
  assert.equal(await dialog.getByLabel('Ended on').inputValue(), today, "today in the organization's zone");
  await dialog.getByRole('radio', { name: 'Back to the shelter' }).check();
  await dialog.getByRole('combobox', { name: 'Kennel or unit' }).click();
  await page.getByRole('option', { name: /^Kennel 1/ }).click();
  await dialog.getByRole('textbox', { name: 'Notes' }).fill('Back after the vet visit');
  await dialog.getByRole('button', { name: 'End the placement…' }).click();
  // Nothing has changed yet: the confirmation says it all first.
  await dialog.getByText(/Rex leaves Fay Okafor on .* and goes back to Kennel 1 \(returned to the shelter\)/).waitFor();
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${placed.Rex}`)).body.status, 'active');
  await axe(page, 'the end-a-placement confirmation');
  await dialog.getByRole('button', { name: 'Yes, end the placement' }).click();
  await dialog.waitFor({ state: 'detached' });
  const rexEnd = (await org.req('GET', `/api/animals/foster-assignments/${placed.Rex}`)).body;
  assert.deepEqual(
    [rexEnd.status, rexEnd.end_reason, rexEnd.ended_on, rexEnd.notes],
    ['completed', 'returned_to_shelter', today, 'Back after the vet visit'],
  );
  assert.equal((await org.req('GET', `/api/v1/animals/${rex.id}`)).body.locationId, k1.id);

  // Milo goes straight to Gus's home.
  await page.getByRole('button', { name: 'End fostering of Milo' }).click();
  const d2 = page.getByRole('dialog', { name: 'End fostering of Milo' });
  await d2.getByRole('radio', { name: 'To another foster home' }).check();
  await d2.getByRole('combobox', { name: 'Next foster home' }).click();
  await page.getByRole('option', { name: /^Gus Moreau/ }).click();
  await d2.getByRole('button', { name: 'End the placement…' }).click();
  await d2.getByText(/Milo leaves Fay Okafor on .* and goes to Gus Moreau \(moved to another foster home\)/).waitFor();
  await d2.getByRole('button', { name: 'Yes, end the placement' }).click();
  await d2.waitFor({ state: 'detached' });
  const miloNow = (await org.req('GET', `/api/animals/foster-assignments?animal_id=${milo.id}&status=active`)).body.results;
  assert.deepEqual([miloNow.length, miloNow[0]?.foster_home_id], [1, gusHome.id]);
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${placed.Milo}`)).body.end_reason, 'moved_to_another_foster');
  await page.getByRole('table', { name: 'Placements' }).getByText('Moved to another foster home').waitFor();

  assert.deepEqual(errors, []);
  await context.close();
});

test('kennel-side widths: at 375 px and 768 px no page scrolls sideways and the header never covers the title', async () => {
  const org = await makeOrg(t, { timeZone: ZONE, country: 'US' });
  const made = await maker(org);
  const base = bench.base(org);
  const a = await made('POST', '/api/v1/animals', {
    name: 'Bartholomew-the-extraordinarily-long-named',
    species: 'dog',
    status: 'Available',
    intakeDate: '2026-01-05',
    microchipNumber: '985112345678903',
  });
  await made('POST', '/api/v1/animals', { name: 'Miso', species: 'cat', status: 'Available', intakeDate: '2026-01-05' });
  const { session } = await org.sessionWith('admin');
  const pages = ['/', '/animals', `/animals/${a.id}`, '/adoptions', '/shifts', '/foster', '/messages'];
  for (const width of [375, 768]) {
    const { context, page, errors } = await openPage(bench, { org, session, width, height: width === 375 ? 740 : 1024, timezoneId: 'UTC' });
    for (const p of pages) {
      await page.goto(`${base}/app${p === '/' ? '' : p}`);
      const title = page.getByRole('heading', { level: 2 }).first();
      await title.waitFor();
      await page.waitForLoadState('networkidle');
      const m = await page.evaluate(() => ({
        scroll: (document.scrollingElement as Element).scrollWidth,
        inner: window.innerWidth,
        header: (document.querySelector('header') as HTMLElement).getBoundingClientRect().bottom,
        headerHeight: (document.querySelector('header') as HTMLElement).scrollHeight,
        title: (document.querySelector('main h2') as HTMLElement).getBoundingClientRect().top,
      }));
      assert.ok(m.scroll <= m.inner, `${p} at ${width} px scrolls sideways: ${m.scroll} > ${m.inner}`);
      assert.ok(m.headerHeight <= 56, `${p} at ${width} px: the header's content (${m.headerHeight} px) overflows its 56 px`);
      assert.ok(m.title >= m.header, `${p} at ${width} px: the header (bottom ${m.header}) covers the title (top ${m.title})`);
      // Below 992 px the sidebar is behind the menu button.
      assert.equal(await page.getByRole('button', { name: 'Menu' }).isVisible(), true, `${p} at ${width} px has the menu button`);
      if (p === '/' && width === 375) await shot(page, 'phone');
      if (p === '/animals' && width === 768) await shot(page, 'tablet');
    }
    // Tabs stay one row (scrolling sideways in their strip when they do not fit).
    await page.goto(`${base}/app/animals/${a.id}`);
    const tabs = page.getByRole('tablist').first();
    await tabs.waitFor();
    const rows = await tabs.evaluate(
      (el) => new Set([...el.querySelectorAll('[role="tab"]')].map((t) => Math.round(t.getBoundingClientRect().top))).size,
    );
    assert.equal(rows, 1, `the animal page's tabs wrap at ${width} px`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
