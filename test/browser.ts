// What every browser test of the staff app shares: the app built when stale, Debian's Chromium driven by
// playwright-core, a signed-in page with its errors collected, axe (serious or critical violations fail)
// and screenshots into docs/screenshots/. Each test keeps its own assertions; this file holds the set-up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import axeCore, { type AxeResults } from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestApp, TestOrg } from './harness.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SHOTS = path.join(ROOT, 'docs/screenshots');
// Debian's chromium; ARK_CHROMIUM points at another build of the same browser (a machine without the package).
export const CHROMIUM = process.env.ARK_CHROMIUM ?? '/usr/bin/chromium';

export interface BrowserBench {
  /** The Ark under test, started after the app was built. */
  t: TestApp;
  browser: Browser;
  /** The port the app listens on (loopback); an organization's pages are at http://<slug>.localhost:<port>. */
  port: number;
  base(org: Pick<TestOrg, 'slug'>): string;
  close(): Promise<void>;
}

/**
 * Builds the app when its build is older than its sources, then starts Ark with `start` (after the build:
 * Ark reads the app's page once, when it starts, so an Ark started before a build would name assets that
 * are gone), listens on a loopback port and launches Chromium.
 */
export async function startBrowser(start: () => Promise<TestApp>, opts: { staffApp?: boolean } = {}): Promise<BrowserBench> {
  assert.ok(existsSync(CHROMIUM), `Debian chromium is installed at ${CHROMIUM}`);
  // Pages served without the staff app (the public site, the portal) need no build; `npm test` builds it once for
  // every browser test (ARK_TEST_APP_BUILT).
  if (opts.staffApp !== false && !process.env.ARK_TEST_APP_BUILT) {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'web/scripts/build.ts'), '--if-stale'], {
      stdio: 'inherit',
      cwd: ROOT,
    });
  }
  const t = await start();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  mkdirSync(SHOTS, { recursive: true });
  return {
    t,
    browser,
    port,
    base: (org) => `http://${org.slug}.localhost:${port}`,
    close: () => browser.close(),
  };
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors seen so far (401s and failed resource loads excepted). */
  errors: string[];
}

/**
 * A new browser context and page, with reduced motion (the app then skips its transitions, so axe
 * measures colours as they settle) and errors collected. With `session`, the page is signed in with
 * that session cookie on the organization's host.
 */
export async function openPage(
  bench: BrowserBench,
  opts: { org?: Pick<TestOrg, 'slug'>; session?: string; width?: number; height?: number; timezoneId?: string } = {},
): Promise<AppPage> {
  const context = await bench.browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    reducedMotion: 'reduce',
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  if (opts.session && opts.org)
    await context.addCookies([
      { name: 'ark_session', value: opts.session, domain: `${opts.org.slug}.localhost`, path: '/', httpOnly: true, sameSite: 'Lax' },
    ]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/401|Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * Waits until no transition or finite animation is running (two frames first, so what the last click
 * started has begun): axe then measures colours as they settle, not a label mid-fade. Endless ones
 * (a loader's spin) are not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    const running = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * axe run in the page itself: its script is added once per document (a single-page app keeps it across its screens)
 * and run with the same rules and options as AxeBuilder's. AxeBuilder adds the ~0.5 MB script again at every call,
 * which cost two thirds of each check's CPU; it is still used for a page with frames, which it checks frame by frame.
 */
async function axeInPage(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeCore.source);
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: unknown }> } };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations as AxeResults['violations'];
  });
}

/** Fails on any serious or critical accessibility violation on the page as it stands. */
export async function axe(page: Page, what: string): Promise<void> {
  await settle(page);
  // Only violations are read, so axe gathers node details for them alone (its documented speed-up for large pages).
  const violations =
    page.frames().length > 1
      ? (await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()).violations
      : await axeInPage(page);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
          .join(', ')})`,
    ),
    [],
    `accessibility of ${what}`,
  );
}

/** A picture of the page as it stands (docs/screenshots/<prefix>-<name>.png), without the confirmations in the corner. */
export const shot = (page: Page, name: string, prefix = 'app') =>
  page.screenshot({
    path: path.join(SHOTS, `${prefix}-${name}.png`),
    fullPage: false,
    style: '.mantine-Notifications-root { display: none !important; }',
  });

/** The initial JavaScript of the app (the entry and what index.html preloads), gzipped, in bytes. */
export function initialJs(): number {
  const html = readFileSync(path.join(ROOT, 'web/dist/index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/app\/assets\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  return files.reduce((n, f) => n + gzipSync(readFileSync(path.join(ROOT, 'web/dist/assets', f))).length, 0);
}
