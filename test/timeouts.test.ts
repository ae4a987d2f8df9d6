import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { testApp, type TestApp } from './harness.ts';

// Slow or idle clients do not hold connections: headers within 15 s, a request within 120 s, kept-alive
// connections idle 10 s at most (src/app.ts).

let t: TestApp;
before(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => t.close());

test('the server cuts slow headers and idle connections early', async () => {
  const server = t.app.server;
  assert.equal(server.headersTimeout, 15_000);
  assert.equal(server.requestTimeout, 120_000);
  assert.equal(server.keepAliveTimeout, 10_000);
  // A client that starts a request and never finishes its headers is answered 408 and cut (well before 75 s).
  const port = (server.address() as AddressInfo).port;
  const answer = await new Promise<string>((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    let out = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', reject);
    setTimeout(() => {
      s.destroy();
      reject(new Error('still open after 30 s'));
    }, 30_000).unref();
  });
  assert.match(answer, /^HTTP\/1\.1 408/);
});
