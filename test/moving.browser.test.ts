// Moving to Ark in a real Chromium (test/browser.ts): PetPoint's two report files chosen on the Move to Ark screen,
// the dry run's report (counts, the intake and outcome mapping, SAC before and after, refused rows), one mapping
// changed, the move run in the background with its progress, and the screen at phone width. Every page goes through axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp } from './harness.ts';
import { axe, type BrowserBench, openPage, shot, startBrowser } from './browser.ts';
import { runDueJobs } from '../src/platform/jobs.ts';
import { petpointFiles } from '../src/modules/moving/fixtures/others.ts';

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

test('move to Ark: PetPoint files, the dry run, a mapping changed, the move with its progress, a phone', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC', country: 'US', currency: 'USD' });
  const { session } = await org.sessionWith('admin');
  const { page, errors, context } = await openPage(bench, { org, session });
  await page.goto(`${bench.base(org)}/app/moving`);
  await page.getByRole('heading', { name: 'Move to Ark' }).waitFor();
  await page.getByRole('combobox', { name: 'From' }).click();
  await page.getByRole('option', { name: 'PetPoint' }).click();
  const files = petpointFiles(60);
  await page
    .locator('input[type=file]')
    .setInputFiles(Object.entries(files).map(([name, content]) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(content) })));
  await axe(page, 'the move screen with files chosen');
  await page.getByRole('button', { name: 'Check (dry run)' }).click();
  await page.getByRole('heading', { name: /Dry run: nothing was written/ }).waitFor();
  const table = page.getByRole('table', { name: 'What the move does' });
  await table.waitFor();
  assert.match((await table.innerText()).replace(/\s+/g, ' '), /Animals \d+ 0 0 0 \d/);
  // Seized animals count as strays here: the user changes that word's category before moving.
  const seized = page.getByRole('combobox', { name: 'Category for Seized / Custody' });
  assert.equal(await seized.inputValue(), 'Stray / at large');
  await seized.click();
  await page.getByRole('option', { name: 'Other intake' }).click();
  assert.equal(await seized.inputValue(), 'Other intake');
  await axe(page, 'the dry run report');
  await shot(page, 'moving-dry-run');
  await page.getByRole('button', { name: 'Move the records' }).click();
  await page.getByText(/records written/).waitFor();
  await runDueJobs(t.ctx, { orgId: org.id });
  await page.getByRole('heading', { name: 'Moved' }).waitFor({ timeout: 15000 });
  await axe(page, 'the finished move');
  await shot(page, 'moving-done');
  // The changed category was used.
  const stays = await org.req('GET', '/api/moving/external-ids?source=petpoint&kind=animal&limit=5');
  assert.equal(stays.status, 200);
  assert.ok(stays.body.results.length > 0);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await page.getByRole('heading', { name: 'Move to Ark' }).waitFor();
  await axe(page, 'the move screen on a phone');
  await shot(page, 'moving-phone');
  assert.deepEqual(errors, []);
  await context.close();
});
