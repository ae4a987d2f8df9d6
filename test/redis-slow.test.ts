/**
 * One slow Redis answer (past the 500 ms command timeout) moves rate limiting to this process for a moment only:
 * the next good answer brings the shared counters back, and /healthz says ok again by itself.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectRedis } from '../src/platform/rate-limit.ts';
import { makeOrg, testApp } from './harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a single slow Redis answer does not leave Ark degraded: it recovers on the next good answer', async (ctx) => {
  const probe = connectRedis('redis://127.0.0.1:6379');
  const up = await new Promise<boolean>((resolve) => {
    probe.once('ready', () => resolve(true));
    setTimeout(() => resolve(false), 3000);
  });
  probe.disconnect();
  if (!up) {
    ctx.skip('Redis is not reachable at 127.0.0.1:6379, so this test cannot run');
    return;
  }
  // A relay in front of the real Redis that can hold Redis's answers back for 800 ms (a slow answer, not an outage).
  let slow = false;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(6379, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (d: Buffer) => {
      if (slow) setTimeout(() => client.write(d), 800);
      else client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  const redis = connectRedis(`redis://127.0.0.1:${(relay.address() as net.AddressInfo).port}`);
  await new Promise((r) => redis.once('ready', r));
  const t = await testApp();
  const built = await buildApp({
    config: { ...loadConfig({}), rateLimitPerMinute: 1000 },
    db: t.db,
    redis,
    lazySchemas: true,
    apiReference: false,
  });
  try {
    const org = await makeOrg(t);
    const hit = () =>
      built.app.inject({ method: 'GET', url: '/api/v1/animals', headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` } });
    const health = async () => (await built.app.inject({ method: 'GET', url: '/healthz' })).json().redis;
    assert.equal((await hit()).statusCode, 200);
    assert.equal(await health(), 'ok');

    slow = true;
    assert.equal((await hit()).statusCode, 200, 'served while Redis is slow');
    assert.equal(await health(), 'degraded');
    slow = false;
    await sleep(1000); // the late answer arrives; Redis answers in time again

    let backMs = -1;
    const from = Date.now();
    while (Date.now() - from < 10_000) {
      await hit();
      if ((await health()) === 'ok') {
        backMs = Date.now() - from;
        break;
      }
      await sleep(100);
    }
    assert.ok(backMs >= 0, '/healthz says ok again within seconds, without a reconnection');
    // And the counters are shared again: the remaining count in Redis goes down by one per request.
    const a = Number((await hit()).headers['ratelimit-remaining']);
    const b = Number((await hit()).headers['ratelimit-remaining']);
    assert.equal(a - b, 1);
  } finally {
    await built.app.close();
    await t.close();
    redis.disconnect();
    for (const s of sockets) s.destroy();
    relay.close();
  }
});
