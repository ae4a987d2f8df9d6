// The cold dashboard's bytes over the wire: a signed-in staff member opens /app/ (the dashboard) in a new
// browser context (an empty cache) in headless Chromium, asking for `br, gzip`, then again asking for
// `identity`. Every response is counted through the DevTools protocol: the bytes that crossed the wire
// (Network.loadingFinished's encodedDataLength, headers included) and the bodies once decoded
// (Network.dataReceived's dataLength). `npm run bench:web-bytes` (on a store of its own: DATABASE_URL, else the
// embedded PostgreSQL; it also checks compressed answers come in under half their size). The figures are in
// docs/staff-app.md. A measurement, not part of `npm test`: the shelter's day browser test prints the compressed
// figure on every run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp } from '../test/harness.ts';
import { type BrowserBench, openPage, startBrowser } from '../test/browser.ts';
import { benchStore } from './setup.ts';

let t: TestApp;
let bench: BrowserBench;
let store: Awaited<ReturnType<typeof benchStore>> | undefined;
before(async () => {
  if (!process.env.ARK_TEST_DATABASE_URL) {
    store = await benchStore('web-bytes');
    process.env.ARK_TEST_DATABASE_URL = store.url;
  }
  bench = await startBrowser(() => testApp());
  t = bench.t;
});
after(async () => {
  await bench?.close();
  await t?.close();
  await store?.stop();
});

interface Load {
  responses: number;
  /** Bytes received, headers and (compressed) bodies. */
  wire: number;
  /** The bodies decoded. */
  decoded: number;
  byType: Record<string, { n: number; wire: number; decoded: number }>;
}

async function load(org: Awaited<ReturnType<typeof makeOrg>>, session: string, encoding: string): Promise<Load> {
  const { context, page } = await openPage(bench, { org, session });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': encoding } });
  const type = new Map<string, string>();
  const decoded = new Map<string, number>();
  const wire = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => type.set(e.requestId, e.type));
  cdp.on('Network.dataReceived', (e) => decoded.set(e.requestId, (decoded.get(e.requestId) ?? 0) + e.dataLength));
  cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
  await page.goto(`${bench.base(org)}/app/`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 2 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  const out: Load = { responses: 0, wire: 0, decoded: 0, byType: {} };
  for (const [id, w] of wire) {
    const d = decoded.get(id) ?? 0;
    const k = type.get(id) ?? 'Other';
    out.responses++;
    out.wire += w;
    out.decoded += d;
    const row = (out.byType[k] ??= { n: 0, wire: 0, decoded: 0 });
    row.n++;
    row.wire += w;
    row.decoded += d;
  }
  await context.close();
  return out;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

test('the cold dashboard: bytes over the wire, compressed and not', async () => {
  const org = await makeOrg(t);
  const { session } = await org.sessionWith('admin');
  const br = await load(org, session, 'br, gzip');
  const plain = await load(org, session, 'identity');
  for (const [name, l] of [
    ['br, gzip', br],
    ['identity', plain],
  ] as const) {
    console.log(`Accept-Encoding: ${name}: ${l.responses} responses, ${kb(l.wire)} over the wire, ${kb(l.decoded)} decoded`);
    for (const [k, r] of Object.entries(l.byType).sort((a, b) => b[1].wire - a[1].wire))
      console.log(`  ${k.padEnd(10)} ${String(r.n).padStart(3)}  ${kb(r.wire).padStart(11)} wire  ${kb(r.decoded).padStart(11)} decoded`);
  }
  console.log(`compressed / identity over the wire: ${((br.wire / plain.wire) * 100).toFixed(1)}%`);
  assert.ok(br.responses > 0 && br.decoded > 0, 'the dashboard loaded');
  assert.ok(br.wire < br.decoded / 2, 'compressed answers cross the wire at under half their size');
});
