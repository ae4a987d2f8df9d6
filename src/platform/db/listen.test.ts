/**
 * Supervised LISTEN connections (src/platform/db/listen.ts) through an outage: one connection at a time, a bounded
 * back-off while PostgreSQL is away (not a retry storm), and listening again by itself once it is back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pgProxy } from '../../../test/pg-proxy.ts';
import { announceChange, listenForChanges } from '../cache-bus.ts';
import { Db } from './db.ts';
import { listenBackoffMs } from './listen.ts';

const url = process.env.ARK_TEST_DATABASE_URL ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

test('the back-off doubles from 250 ms and stops at 2 s', () => {
  for (let i = 0; i < 50; i++) {
    assert.ok(listenBackoffMs(1) >= 200 && listenBackoffMs(1) <= 300);
    assert.ok(listenBackoffMs(30) <= 2400);
  }
});

test('the cache bus keeps one connection through a 4 s outage, retries with back-off, and hears announcements after it', async () => {
  const proxy = await pgProxy(url);
  const db = new Db(url, 2);
  let changes = 0;
  const bus = listenForChanges(proxy.url, () => changes++);
  try {
    // Heard: an announcement reaches the bus (announced again until one does).
    const hears = async () => {
      const before = changes;
      await announceChange(db);
      await sleep(100);
      return changes > before;
    };
    await until('an announcement', hears);

    proxy.down();
    const acceptedAtOutage = proxy.accepted;
    proxy.resetPeak();
    await sleep(4000);
    const attempts = proxy.accepted - acceptedAtOutage;
    proxy.up();
    const backAt = Date.now();
    await until('an announcement after the outage', hears);
    const recoveredMs = Date.now() - backAt;
    console.log(
      `# cache bus: ${attempts} connection attempts in a 4 s outage, peak ${proxy.peak} open, listening again ${recoveredMs} ms after`,
    );
    // 250 ms doubling to 2 s: about 5 attempts in 4 s; the old double-scheduling made thousands.
    assert.ok(attempts <= 10, `${attempts} connection attempts during a 4 s outage`);
    assert.ok(proxy.peak <= 1, `${proxy.peak} connections open at once`);
    assert.ok(proxy.open <= 1);
  } finally {
    await bus.close();
    await db.close();
    await proxy.close();
  }
  assert.equal(proxy.open, 0, 'closing the bus closes its connection');
});
