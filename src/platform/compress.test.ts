import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { makeOrg, testApp, type TestApp } from '../../test/harness.ts';
import { encodingFor } from './public-cache.ts';
import { precompress } from './plugins/web-app.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('the encoding a client takes: Brotli first, then gzip; q=0 refuses one', () => {
  assert.equal(encodingFor('gzip, deflate, br'), 'br');
  assert.equal(encodingFor('gzip'), 'gzip');
  assert.equal(encodingFor('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(encodingFor('identity'), null);
  assert.equal(encodingFor(undefined), null);
  assert.equal(encodingFor('*'), 'br');
  // Case, weights and a header sent twice; asked twice, the remembered answer is the same.
  assert.equal(encodingFor('GZIP, BR;Q=0'), 'gzip');
  assert.equal(encodingFor('br;q=0.0, gzip;q=0'), null);
  assert.equal(encodingFor(['identity', 'gzip']), 'gzip');
  for (let i = 0; i < 2; i++) assert.equal(encodingFor('deflate, gzip;q=1.0, *;q=0.5'), 'br');
});

test('API answers of 1 KiB or more are compressed for a client that takes it; small ones and other clients get plain bytes', async () => {
  const org = await makeOrg(t);
  for (let i = 0; i < 12; i++) {
    const r = await org.req('POST', '/api/v1/animals', {
      body: { name: `Dog ${i}`, species: 'dog', status: 'Available', intakeDate: '2026-01-10', notes: 'x'.repeat(80) },
    });
    assert.equal(r.status, 201, r.raw);
  }
  const get = (enc?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/animals?perPage=12',
      headers: { host: org.host, authorization: `Bearer ${org.keys.admin}`, ...(enc ? { 'accept-encoding': enc } : {}) },
    });
  const plain = await get();
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.match(String(plain.headers.vary), /Accept-Encoding/);
  const br = await get('gzip, br');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  assert.ok(br.rawPayload.length < plain.rawPayload.length / 2);
  const gz = await get('gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
  const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br' } });
  assert.equal(small.headers['content-encoding'], undefined);
});

test("the staff app's built assets get Brotli and gzip copies beside them, made once", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ark-assets-'));
  try {
    const js = `console.log(${JSON.stringify('ark '.repeat(2000))});`;
    writeFileSync(join(dir, 'index-abc123.js'), js);
    writeFileSync(join(dir, 'tiny.css'), 'a{}');
    writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096));
    precompress(dir);
    assert.equal(brotliDecompressSync(readFileSync(join(dir, 'index-abc123.js.br'))).toString(), js);
    assert.equal(gunzipSync(readFileSync(join(dir, 'index-abc123.js.gz'))).toString(), js);
    assert.equal(existsSync(join(dir, 'tiny.css.br')), false, 'too small to pay');
    assert.equal(existsSync(join(dir, 'logo.png.br')), false, 'not text');
    const made = readFileSync(join(dir, 'index-abc123.js.br'));
    precompress(dir);
    assert.deepEqual(readFileSync(join(dir, 'index-abc123.js.br')), made);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
