import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { makeOrg, request, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { holdMidMinute } from '../../../test/clock.ts';
import pg from 'pg';
import { publicCache } from '../../platform/public-cache.ts';
import { announceChange, onPublicChange } from '../../platform/cache-bus.ts';

let t: TestApp;
before(async () => {
  // Listening as `npm start` does: the database's commit-time notices reach this process too.
  t = await testApp({}, undefined, { listen: true });
  // The listening connection forgets every kept answer when it connects: wait until it has (at most 10 s), so a test
  // never sees its cache emptied by a connection that was still being made (a fixed pause was too short under load).
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    t.ctx.onChange(() => {
      clearTimeout(timer);
      resolve();
    });
  });
});
after(async () => t.close());

const page = (org: TestOrg, url: string, headers: Record<string, string> = {}) => request(t, org.host, 'GET', url, { key: null, headers });

async function animal(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: {
      name: 'Kennel 4',
      publicName: 'Biscuit',
      species: 'dog',
      status: 'Available',
      intakeDate: '2026-01-10',
      isPublic: true,
      ...body,
    },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.data?.id ?? res.body.id;
}

test('an edit shows at once on every cached page; a 304 comes from the cache; the headers a CDN needs', async () => {
  // The notices of what the set-up writes (the organization, the animal) reach this process's listening connection a
  // moment after they commit, and each empties the cache: wait for them, so that what follows is a kept answer.
  // A write may also start work that commits later (a job): wait until no notice for the organization has come for a
  // while, not only for the two the set-up is known to send.
  let announced = 0;
  let forOrg = 0;
  let last = Date.now();
  t.ctx.onChange(() => announced++);
  const org = await makeOrg(t);
  const off = onPublicChange((o) => {
    if (o === org.id || o === null) {
      forOrg++;
      last = Date.now();
    }
  });
  const id = await animal(org, { publicName: 'Pepper' });
  for (let waited = 0; waited < 8000 && (announced < 1 || forOrg < 2 || Date.now() - last < 500); waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  off();
  const urls = ['/', '/animals', `/animals/${id}/pepper`, '/feed.json', '/feed.xml', '/sitemap.xml', '/api/public/animals', '/widget.js'];
  const first = new Map<string, string>();
  for (const url of urls) {
    const r = await page(org, url);
    assert.equal(r.status, 200, url);
    assert.equal(r.headers['cache-control'], 'public, max-age=0, s-maxage=30, stale-while-revalidate=30', url);
    assert.match(String(r.headers.vary), /Accept-Encoding/, url);
    assert.match(String(r.headers.etag), /^"[A-Za-z0-9_-]{27}"$/, url);
    first.set(url, String(r.headers.etag));
    // The second answer is the kept one: same ETag, and a 304 without running the route.
    const hitsBefore = publicCache.hits;
    const again = await page(org, url, { 'if-none-match': String(r.headers.etag) });
    assert.equal(again.status, 304, url);
    assert.equal(again.raw, '');
    assert.equal(again.headers.etag, r.headers.etag, url);
    assert.equal(publicCache.hits, hitsBefore + 1, `${url} answered from the cache`);
    assert.equal((await page(org, url)).raw, r.raw, url);
  }
  // An edit through the API: every page that shows the animal changes on the next request.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { publicName: 'Pepper Pot' } })).status, 200);
  for (const url of urls.filter((u) => !u.startsWith('/animals/') && u !== '/widget.js')) {
    const r = await page(org, url, { 'if-none-match': String(first.get(url)) });
    assert.equal(r.status, 200, url);
    assert.match(r.raw, /Pepper Pot|pepper-pot/, url);
  }
  const moved = await page(org, `/animals/${id}/pepper`);
  assert.equal(moved.status, 301);
  const renamed = await page(org, `/animals/${id}/pepper-pot`);
  assert.match(renamed.raw, /Pepper Pot/);
  // A photo-less animal made private: its page is a 404 at once, the list drops it.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { isPublic: false } })).status, 200);
  assert.equal((await page(org, `/animals/${id}/pepper-pot`)).status, 404);
  assert.equal((await page(org, '/api/public/animals')).body.total, 0);
});

test('a change made outside any request (another process, a job) reaches the cache when it commits', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Juniper' });
  const before = await page(org, '/animals');
  assert.match(before.raw, /Juniper/);
  await t.db.query(`UPDATE animals SET public_name = 'Juniper Berry' WHERE organization_id = $1 AND id = $2`, [org.id, id]);
  let seen = false;
  for (let i = 0; i < 100 && !seen; i++) {
    seen = /Juniper Berry/.test((await page(org, '/animals')).raw);
    if (!seen) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(seen, 'the list shows the new name');
  // A change rolled back tells nobody: the kept answer stays. A late notice of the set-up's own work (a job the
  // creation started) also empties the organization's answers: a round that heard one is run again.
  let heard = 0;
  const off = onPublicChange((o) => {
    if (o === org.id || o === null) heard++;
  });
  try {
    for (let round = 1; ; round++) {
      await settled(org, '/animals');
      const kept = await page(org, '/animals');
      const heardBefore = heard;
      await t.db
        .tx(async (q) => {
          await q.query(`UPDATE animals SET public_name = 'Never' WHERE organization_id = $1 AND id = $2`, [org.id, id]);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      const hits = publicCache.hits;
      const after = await page(org, '/animals');
      if (heard !== heardBefore && round < 5) continue;
      assert.equal(after.raw, kept.raw);
      assert.equal(publicCache.hits, hits + 1);
      return;
    }
  } finally {
    off();
  }
});

test('a miss compresses fast; the first hit sends the same bytes denser, the same ETag', async () => {
  const org = await makeOrg(t);
  for (let i = 0; i < 8; i++) await animal(org, { publicName: `Cat ${i}` });
  const url = '/animals?fresh=1';
  const headers = { host: org.host, 'accept-encoding': 'br' };
  // The creations' change notices arrive after their answers: let them land, so the second request is a hit.
  await new Promise((r) => setTimeout(r, 500));
  const miss = await t.app.inject({ method: 'GET', url, headers });
  const hits = publicCache.hits;
  const hit = await t.app.inject({ method: 'GET', url, headers });
  assert.equal(publicCache.hits, hits + 1, 'the second request is answered from the cache');
  const again = await t.app.inject({ method: 'GET', url, headers });
  assert.equal(brotliDecompressSync(hit.rawPayload).toString(), brotliDecompressSync(miss.rawPayload).toString());
  assert.equal(hit.headers.etag, miss.headers.etag);
  assert.ok(hit.rawPayload.length < miss.rawPayload.length, `${hit.rawPayload.length} < ${miss.rawPayload.length}`);
  assert.deepEqual(again.rawPayload, hit.rawPayload);
});

test('text answers are compressed for clients that take Brotli or gzip, from the cache too', async () => {
  const org = await makeOrg(t);
  for (let i = 0; i < 8; i++) await animal(org, { publicName: `Dog ${i}` });
  for (const url of ['/animals', '/api/public/animals']) {
    const plain = await t.app.inject({ method: 'GET', url, headers: { host: org.host } });
    assert.equal(plain.headers['content-encoding'], undefined);
    for (let round = 0; round < 2; round++) {
      const br = await t.app.inject({ method: 'GET', url, headers: { host: org.host, 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(br.headers['content-encoding'], 'br', url);
      assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
      const gz = await t.app.inject({ method: 'GET', url, headers: { host: org.host, 'accept-encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip', url);
      assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
      assert.equal(gz.headers.etag, plain.headers.etag);
    }
  }
});

test('totals and filter choices stay exact through intakes, outcomes, holds, edits and deletions', async () => {
  const org = await makeOrg(t);
  for (const [key, name] of [
    ['good_with_dogs', 'Good with dogs'],
    ['good_with_cats', 'Good with cats'],
  ]) {
    assert.equal((await org.req('POST', '/api/animals/behaviour-attributes', { body: { key, name, scale: 'yes_no' } })).status, 201);
  }
  const ids: string[] = [];
  const species = ['dog', 'dog', 'cat', 'cat', 'rabbit', 'dog', 'cat', 'dog'];
  for (let i = 0; i < species.length; i++) {
    ids.push(
      await animal(org, {
        publicName: `Pet ${i}`,
        species: species[i],
        sex: i % 2 ? 'male' : 'female',
        weight: 10 + i * 12,
        dateOfBirth: i % 3 === 0 ? '2025-10-01' : i % 3 === 1 ? '2022-03-15' : '2014-06-30',
      }),
    );
  }
  const filters = [
    '',
    '?species=dog',
    '?species=cat&sex=male',
    '?size=small',
    '?age=baby',
    '?age=adult',
    '?age=senior',
    '?age=young',
    '?good_with=dogs',
    '?species=dog&age=adult',
  ];
  // The truth: every match listed (limit 100), counted.
  async function check(label: string) {
    for (const f of filters) {
      const r = await page(org, `/api/public/animals${f}${f ? '&' : '?'}limit=48`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.total, r.body.results.length, `${label}: ${f}`);
    }
    const all = await page(org, '/api/public/animals?limit=48');
    const bySpecies = new Map<string, number>();
    for (const a of all.body.results) bySpecies.set(a.species, (bySpecies.get(a.species) ?? 0) + 1);
    assert.deepEqual(
      [...all.body.species].sort(),
      [...bySpecies.keys()].sort(),
      `${label}: species choices are those with an adoptable animal`,
    );
  }
  await check('start');
  assert.equal((await page(org, '/api/public/animals')).body.total, 8);
  assert.equal((await page(org, '/api/public/animals?age=adult&limit=48')).body.total, 3);
  // Behaviour values.
  const bv = await org.req('PUT', `/api/animals/${ids[0]}/behaviour`, { body: { values: { good_with_dogs: 'yes' } } });
  assert.equal(bv.status, 200, bv.raw);
  assert.equal((await page(org, '/api/public/animals?good_with=dogs')).body.total, 1);
  await check('behaviour');
  // A hold in force takes the rabbit off the list and its species off the choices.
  assert.equal((await org.req('POST', `/api/animals/${ids[4]}/holds`, { body: { reason: 'bite_quarantine' } })).status, 201);
  assert.equal((await page(org, '/api/public/animals')).body.total, 7);
  assert.ok(!(await page(org, '/api/public/animals')).body.species.includes('rabbit'));
  await check('hold');
  // An outcome (adopted) takes an animal out of care.
  const out = await org.req('POST', `/api/animals/${ids[1]}/outcomes`, {
    body: { type: 'transfer_out', occurred_at: new Date().toISOString() },
  });
  assert.equal(out.status, 201, out.raw);
  assert.equal((await page(org, '/api/public/animals')).body.total, 6);
  await check('outcome');
  // Edits that move an animal between filter values.
  const edit = await org.req('PATCH', `/api/v1/animals/${ids[2]}`, { body: { weight: 90, dateOfBirth: '2025-12-01' } });
  assert.equal(edit.status, 200, edit.raw);
  await check('edit');
  assert.equal((await org.req('DELETE', `/api/v1/animals/${ids[3]}`)).status < 300, true);
  await check('delete');
  // Concurrent writes: 12 new public animals at once; the total counts each once.
  const totalBefore = (await page(org, '/api/public/animals')).body.total;
  await Promise.all(Array.from({ length: 12 }, (_, i) => animal(org, { publicName: `Rush ${i}`, species: i % 2 ? 'dog' : 'cat' })));
  assert.equal((await page(org, '/api/public/animals')).body.total, totalBefore + 12);
  await check('concurrent');
  // The listing can be rebuilt from the animals and says the same.
  await t.db.query('SELECT public_listing_rebuild($1)', [org.id]);
  publicCache.clear(null);
  await check('rebuilt');
});

test('an animal page on a cache miss reads what it shows in one statement (the site facts are kept per organization)', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Counted', dateOfBirth: '2024-05-01' });
  const other = await animal(org, { publicName: 'Partner' });
  const bond = await org.req('POST', `/api/animals/${id}/bonds`, { body: { animal_id: other } });
  assert.ok(bond.status < 300 || bond.status === 404, bond.raw);
  await org.req('POST', `/api/animals/${id}/notes`, { body: { kind: 'adoption', body: 'Sleeps all day.', visibility: 'shareable' } });
  const url = `/animals/${id}/counted`;
  assert.equal((await page(org, url)).status, 200);
  const texts: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const a = args[0];
    texts.push(typeof a === 'string' ? a : ((a as { text?: string }).text ?? ''));
    return original.apply(this, args);
  };
  try {
    publicCache.clear(org.id);
    const r = await page(org, url);
    assert.equal(r.status, 200);
    assert.match(r.raw, /Sleeps all day/);
    assert.ok(texts.length <= 2, `statements: ${texts.length}\n${texts.join('\n')}`);
    texts.length = 0;
    const hit = await page(org, url);
    assert.equal(hit.status, 200);
    assert.equal(texts.length, 0, 'a hit reads nothing');
  } finally {
    proto.query = original;
  }
});

test('sharing: an animal page carries Open Graph and Twitter card tags, schema.org JSON-LD and a favicon', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Clover', breed: 'Beagle' });
  await org.req('POST', `/api/animals/${id}/notes`, {
    body: { kind: 'adoption', body: 'Clover loves a puddle.', visibility: 'shareable' },
  });
  const r = await page(org, `/animals/${id}/clover`);
  assert.equal(r.status, 200);
  const meta = (attr: string, name: string) => new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`).exec(r.raw)?.[1];
  assert.match(String(meta('property', 'og:title')), /^Clover · /);
  assert.equal(meta('property', 'og:description'), 'Clover loves a puddle.');
  assert.equal(meta('property', 'og:type'), 'article');
  assert.equal(meta('name', 'twitter:card'), 'summary');
  assert.match(String(meta('name', 'twitter:title')), /^Clover/);
  const ld = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(r.raw)?.[1];
  const json = JSON.parse(String(ld));
  assert.equal(json['@context'], 'https://schema.org');
  assert.equal(json.name, 'Clover');
  assert.match(r.raw, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
  await org.req('PATCH', '/api/settings/public-site', { body: { logo_url: 'https://example.org/logo.png' } });
  assert.match((await page(org, `/animals/${id}/clover`)).raw, /<link rel="icon" href="https:\/\/example.org\/logo.png">/);
});

test('a hold in force is not listed; a hold that starts or ends by time flips the list, its total and choices at that moment', async () => {
  const { runDueJobs, listJobs } = await import('../../platform/jobs.ts');
  const { HOLD_CLOCK_JOB } = await import('./holdclock.ts');
  const org = await makeOrg(t);
  const held = await animal(org, { publicName: 'Held', species: 'dog' });
  const starts = await animal(org, { publicName: 'Starts', species: 'cat' });
  const ends = await animal(org, { publicName: 'Ends', species: 'rabbit' });
  const free = await animal(org, { publicName: 'Free', species: 'dog' });
  await new Promise((r) => setTimeout(r, 300)); // the listening connection is up
  const list = async () => {
    const r = await page(org, '/api/public/animals?limit=48');
    assert.equal(r.status, 200, r.raw);
    assert.equal(r.body.total, r.body.results.length, 'the total counts exactly what is listed');
    return { ids: r.body.results.map((a: { id: string }) => a.id).sort(), species: [...r.body.species].sort() };
  };
  assert.deepEqual((await list()).ids, [held, starts, ends, free].sort());
  // A hold in force now: off the list, the total and its page, at once.
  assert.equal((await org.req('POST', `/api/animals/${held}/holds`, { body: { reason: 'bite_quarantine' } })).status, 201);
  assert.equal((await page(org, `/animals/${held}/held`)).status, 404);
  // A hold that starts in a moment, and one in force now that ends in a moment.
  const boundary = new Date(Date.now() + 1500);
  const s = await org.req('POST', `/api/animals/${starts}/holds`, { body: { reason: 'medical', starts_at: boundary.toISOString() } });
  assert.equal(s.status, 201, s.raw);
  const e = await org.req('POST', `/api/animals/${ends}/holds`, { body: { reason: 'medical', until: boundary.toISOString() } });
  assert.equal(e.status, 201, e.raw);
  const before = await list();
  assert.deepEqual(before.ids, [starts, free].sort());
  assert.deepEqual(before.species, ['cat', 'dog']);
  assert.equal((await page(org, '/api/public/animals?species=rabbit')).body.total, 0);
  // One job per boundary ahead (the start of one, the end of the other), queued by the holds' own writes.
  const jobs = (await listJobs(t.db, org.id, HOLD_CLOCK_JOB)).filter((j) => j.status === 'queued');
  assert.equal(jobs.length, 2);
  for (const j of jobs) assert.equal(new Date(j.run_at).getTime(), boundary.getTime());
  // The moment passes; the queue runs what is due; the cached list is forgotten through the change feed.
  await new Promise((r) => setTimeout(r, Math.max(0, boundary.getTime() - Date.now()) + 100));
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id, kinds: [HOLD_CLOCK_JOB] }), 2);
  let after = await list();
  for (let i = 0; i < 40 && after.ids.includes(starts); i++) {
    await new Promise((r) => setTimeout(r, 50));
    after = await list();
  }
  assert.deepEqual(after.ids, [ends, free].sort());
  assert.deepEqual(after.species, ['dog', 'rabbit']);
  assert.equal((await page(org, '/api/public/animals?species=rabbit')).body.total, 1);
  assert.equal((await page(org, '/api/public/animals?species=cat')).body.total, 0);
  assert.equal((await page(org, `/animals/${starts}/starts`)).status, 404);
  assert.equal((await page(org, `/animals/${ends}/ends`)).status, 200);
  // Released: back at once. And a rebuild from the animals and holds says the same.
  const hid = (await org.req('GET', `/api/animals/${held}/holds`)).body;
  const holdId = (Array.isArray(hid) ? hid : (hid.data ?? hid.results ?? hid.items))[0]?.id;
  assert.ok(holdId, JSON.stringify(hid));
  const rel = await org.req('POST', `/api/animals/holds/${holdId}/release`, { body: {} });
  assert.ok(rel.status < 300, rel.raw);
  for (let i = 0; i < 40 && !(await list()).ids.includes(held); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual((await list()).ids, [held, ends, free].sort());
  await t.db.query('SELECT public_listing_rebuild($1)', [org.id]);
  publicCache.clear(null);
  assert.deepEqual((await list()).ids, [held, ends, free].sort());
});

/**
 * Asks for an address until it is answered from the cache twice running: the commit notices of what a test set up
 * (each empties its organization's kept answers) have landed by then.
 */
async function settled(org: TestOrg, url: string): Promise<void> {
  for (let tries = 0, running = 0; tries < 250; tries++) {
    const hits = publicCache.hits;
    await page(org, url);
    running = publicCache.hits === hits + 1 ? running + 1 : 0;
    if (running === 2) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} was never answered from the cache`);
}

/** A public answer as it went out, its body as bytes (a compressed one too). */
const raw = (host: string, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers: { host, ...headers } });

test('a hit carries the security headers and the request id, as the miss that kept it did', async (tc) => {
  holdMidMinute(tc); // one limiter window, so RateLimit-Reset cannot tick between a miss and its hit
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Marble' });
  await settled(org, '/animals');
  const urls = ['/', '/animals', '/embed', `/animals/${id}/marble`, '/widget.js', '/feed.json', '/api/public/animals'];
  for (const url of urls) {
    for (const encoding of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      const what = `${url} ${encoding['accept-encoding'] ?? 'identity'}`;
      // A miss, then a hit of what it kept. A commit notice that lands between the two (a job of an earlier test, a
      // late notice of this one's set-up) empties the cache and makes the second a miss too: then the pair is asked again.
      let pair: { miss: Awaited<ReturnType<typeof raw>>; hit: Awaited<ReturnType<typeof raw>> } | null = null;
      for (let tries = 0; !pair && tries < 5; tries++) {
        publicCache.clear(org.id);
        const generation = publicCache.generation(org.id);
        const misses = publicCache.misses;
        const miss = await raw(org.host, url, { 'x-request-id': 'the-miss', ...encoding });
        const hits = publicCache.hits;
        const hit = await raw(org.host, url, { 'x-request-id': 'the-hit', ...encoding });
        if (publicCache.generation(org.id) !== generation) continue;
        assert.equal(publicCache.misses, misses + 1, `${what}: the first is a miss`);
        assert.equal(publicCache.hits, hits + 1, `${what}: the second is a hit`);
        pair = { miss, hit };
      }
      assert.ok(pair, `${what}: a miss and its hit with no change between them`);
      const { miss, hit } = pair;
      assert.equal(miss.statusCode, 200, what);
      assert.equal(hit.statusCode, 200, what);
      assert.equal(miss.headers['x-request-id'], 'the-miss', what);
      assert.equal(hit.headers['x-request-id'], 'the-hit', what);
      // The same headers but those that differ per request; a hit's compressed body is denser (see above), so its
      // length differs too: the bytes it stands for are the same.
      const steady = (r: typeof hit) => {
        const { 'x-request-id': _id, date: _date, 'ratelimit-remaining': _left, 'content-length': _length, ...rest } = r.headers;
        return rest;
      };
      assert.deepEqual(steady(hit), steady(miss), what);
      const plain = (r: typeof hit) =>
        r.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(r.rawPayload)
          : r.headers['content-encoding'] === 'gzip'
            ? gunzipSync(r.rawPayload)
            : r.rawPayload;
      assert.deepEqual(plain(hit), plain(miss), what);
      assert.equal(hit.headers['x-content-type-options'], 'nosniff', what);
      // A JSON answer carries the headers that protect a resource; a page, script or feed also those that steer a document.
      const json = String(hit.headers['content-type']).startsWith('application/json');
      assert.equal(hit.headers['referrer-policy'], json ? undefined : 'no-referrer', what);
      assert.match(String(hit.headers['content-security-policy']), /^default-src 'none'/, what);
      assert.match(String(hit.headers['ratelimit-limit']), /^\d+$/, what);
      assert.equal(hit.headers['x-frame-options'], url === '/embed' ? undefined : 'DENY', what);
      // A 304 answered from the entry carries them too.
      const hits = publicCache.hits;
      const again = await raw(org.host, url, { 'x-request-id': 'the-304', 'if-none-match': String(hit.headers.etag), ...encoding });
      assert.equal(again.statusCode, 304, what);
      assert.equal(publicCache.hits, hits + 1, `${what}: the 304 is a hit`);
      assert.equal(again.headers['x-request-id'], 'the-304', what);
      assert.equal(again.headers['x-content-type-options'], 'nosniff', what);
      assert.equal(again.headers['content-security-policy'], hit.headers['content-security-policy'], what);
      assert.equal(again.headers.etag, hit.headers.etag, what);
    }
  }
});

test('a hit is counted against its address, and refused with the same 429 as any request once the allowance is spent', async (tc) => {
  holdMidMinute(tc); // one window of the limiter for the whole test
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Nutmeg' });
  const url = `/animals/${id}/nutmeg`;
  // A late commit notice for the organization (a job its set-up started) empties its kept answers, and a kept answer
  // asked for after that is a miss: then the round is run again, with a fresh allowance.
  let emptied = false;
  const off = onPublicChange((o) => {
    if (o === org.id || o === null) emptied = true;
  });
  tc.after(off);
  for (let round = 1; ; round++) {
    await settled(org, url);
    await settled(org, '/api/public/animals');
    emptied = false;
    // A second app on the same database and cache (one per process), whose address allowance is 5 a minute.
    const limited = await testApp({ publicRateLimitPerMinute: 5 });
    try {
      const get = (path: string, headers: Record<string, string> = {}) => request(limited, org.host, 'GET', path, { key: null, headers });
      const hits = publicCache.hits;
      const first = await get(url);
      assert.equal(first.status, 200);
      assert.equal(first.headers['ratelimit-remaining'], '4');
      assert.equal((await get(url, { 'if-none-match': String(first.headers.etag) })).headers['ratelimit-remaining'], '3');
      assert.equal((await get('/api/public/animals')).headers['ratelimit-remaining'], '2');
      assert.equal((await get(url)).headers['ratelimit-remaining'], '1');
      assert.equal((await get('/animals?never=asked')).headers['ratelimit-remaining'], '0');
      if (emptied && round < 5) continue;
      assert.equal(publicCache.hits, hits + 4, 'the kept answers were hits, each counted');
      // Spent: a kept page, its 304, the kept JSON list and a page never asked for are refused alike.
      const refused = [
        await get(url),
        await get(url, { 'if-none-match': String(first.headers.etag) }),
        await get('/api/public/animals'),
        await get('/animals?never=asked-either'),
      ];
      const [page429] = refused;
      for (const r of refused) {
        assert.equal(r.status, 429, r.raw);
        assert.match(r.raw, /^\{"error":"Too many requests; try again in \d+ seconds\."\}$/);
        assert.equal(r.raw, page429?.raw);
        assert.equal(r.headers['retry-after'], page429?.headers['retry-after']);
        assert.equal(r.headers['ratelimit-remaining'], '0');
        assert.equal(r.headers['x-content-type-options'], 'nosniff');
        assert.ok(r.headers['x-request-id']);
      }
      assert.equal(publicCache.hits, hits + 4, 'a refused request is not answered from the cache');
      return;
    } finally {
      await limited.close();
    }
  }
});

test('HEAD is answered by the route, never from the cache', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Pickle' });
  for (const url of ['/animals', `/animals/${id}/pickle`, '/api/public/animals']) {
    await settled(org, url);
    const get = await raw(org.host, url);
    const [hits, misses] = [publicCache.hits, publicCache.misses];
    const head = await raw(org.host, url, {}, 'HEAD');
    assert.equal(head.statusCode, 200, url);
    assert.equal(head.rawPayload.length, 0, url);
    assert.equal(head.headers['content-type'], get.headers['content-type'], url);
    assert.equal(head.headers['x-content-type-options'], 'nosniff', url);
    assert.equal(publicCache.hits, hits, `${url}: HEAD is not a hit`);
    assert.equal(publicCache.misses, misses, `${url}: nor a miss`);
  }
});

test('no answer is kept for an address that names no animal (404), a moved one (301), or no organization', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Tofu' });
  await settled(org, `/animals/${id}/tofu`);
  for (const [url, status] of [
    [`/animals/${id}/old-name`, 301],
    [`/animals/${id}`, 301],
    ['/animals/ani_nobody/tofu', 404],
    ['/animals?page=999', 404],
  ] as const) {
    const [hits, misses] = [publicCache.hits, publicCache.misses];
    for (let i = 0; i < 3; i++) assert.equal((await page(org, url)).status, status, url);
    assert.equal(publicCache.hits, hits, `${url}: never a hit`);
    assert.equal(publicCache.misses, misses + 3, `${url}: each one a miss, its route answering`);
  }
  const moved = await page(org, `/animals/${id}/old-name`);
  assert.equal(moved.headers.location, `/animals/${id}/tofu`);
  // An address that names no organization: the route's 404 each time, neither hit nor miss.
  const [hits, misses] = [publicCache.hits, publicCache.misses];
  for (const url of ['/animals', `/animals/${id}/tofu`]) {
    for (let i = 0; i < 2; i++) {
      const r = await request(t, 'nobody-here.localhost', 'GET', url, { key: null });
      assert.equal(r.status, 404, url);
      assert.equal(r.headers['cache-control'], 'no-store', url);
    }
  }
  assert.deepEqual([publicCache.hits, publicCache.misses], [hits, misses]);
  // The kept page still answers at its own address.
  assert.equal((await page(org, `/animals/${id}/tofu`)).status, 200);
  assert.equal(publicCache.hits, hits + 1);
});

test("a change announced for one organization (its settings, statuses, keys) forgets that one's answers only", async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  await animal(a, { publicName: 'Clover' });
  const heard: (string | null)[] = [];
  t.ctx.onChange((o) => heard.push(o));
  const announced = async (orgId?: string) => {
    const from = heard.length;
    await announceChange(t.db, orgId);
    for (let i = 0; i < 500 && !heard.slice(from).includes(orgId ?? null); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(heard.slice(from).includes(orgId ?? null), 'the announcement reached this process');
  };
  for (let round = 1; ; round++) {
    await settled(a, '/animals');
    const notices = heard.length;
    await announced(b.id);
    const hits = publicCache.hits;
    await page(a, '/animals');
    // Another announcement meanwhile (another process's work) may have named any organization: run the round again.
    if (heard.length !== notices + 1 && round < 5) continue;
    assert.equal(publicCache.hits, hits + 1, "another organization's change leaves the kept answer");
    break;
  }
  // A change announced for no organization in particular may touch any: every answer is forgotten.
  await settled(a, '/animals');
  await announced(undefined);
  const hits = publicCache.hits;
  await page(a, '/animals');
  assert.equal(publicCache.hits, hits, 'the kept answer was forgotten');
});
