import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FtpSrv } from 'ftp-srv';
import ssh2 from 'ssh2';
import { makeOrg, request, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp({}, undefined, { apiReference: true }); // the bare address keeps its API reference at `/`
});
after(async () => t.close());

const page = (org: TestOrg, url: string, headers: Record<string, string> = {}) => request(t, org.host, 'GET', url, { key: null, headers });

async function behaviourKeys(org: TestOrg) {
  for (const [key, name] of [
    ['good_with_dogs', 'Good with dogs'],
    ['good_with_cats', 'Good with cats'],
    ['good_with_children', 'Good with children'],
  ]) {
    const r = await org.req('POST', '/api/animals/behaviour-attributes', { body: { key, name, scale: 'yes_no' } });
    assert.equal(r.status, 201, r.raw);
  }
}
async function animal(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: {
      name: 'Internal Kennel Name',
      publicName: 'Biscuit',
      species: 'dog',
      status: 'Available',
      intakeDate: '2026-01-10',
      isPublic: true,
      notes: 'INTERNAL NOTE: bites the vet',
      ...body,
    },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.data?.id ?? res.body.id;
}

test('only adoptable animals show, by public name, with public notes only; a hidden one is a friendly 404 at once', async () => {
  const org = await makeOrg(t);
  await behaviourKeys(org);
  const shown = await animal(org, { publicName: 'Mr. Biscuit', breed: 'Beagle', sex: 'male', dateOfBirth: '2024-01-01' });
  const hidden = await animal(org, { publicName: 'Secret Pup', isPublic: false });
  const held = await animal(org, { publicName: 'Held Pup' });
  assert.equal((await org.req('POST', `/api/animals/${held}/holds`, { body: { reason: 'bite_quarantine' } })).status, 201);
  assert.equal(
    (
      await org.req('POST', `/api/animals/${shown}/notes`, {
        body: { kind: 'adoption', body: 'Loves long walks.', visibility: 'shareable' },
      })
    ).status,
    201,
  );
  await org.req('POST', `/api/animals/${shown}/notes`, { body: { kind: 'general', body: 'INTERNAL: staff only' } });
  await org.req('PUT', `/api/animals/${shown}/behaviour`, { body: { values: { good_with_cats: 'yes', good_with_dogs: 'no' } } });

  const list = await page(org, '/animals');
  assert.equal(list.status, 200);
  assert.match(String(list.headers['content-type']), /^text\/html/);
  assert.match(list.raw, /Mr\. Biscuit/);
  assert.doesNotMatch(list.raw, /Secret Pup|Held Pup|Internal Kennel Name|INTERNAL/);
  assert.match(list.raw, new RegExp(`href="/animals/${shown}/mr-biscuit"`));

  const one = await page(org, `/animals/${shown}/mr-biscuit`);
  assert.equal(one.status, 200);
  assert.match(one.raw, /<h1>Mr\. Biscuit<\/h1>/);
  assert.match(one.raw, /Loves long walks\./);
  assert.match(one.raw, /Beagle/);
  assert.match(one.raw, /property="og:title" content="Mr. Biscuit/);
  assert.match(one.raw, /application\/ld\+json/);
  assert.doesNotMatch(one.raw, /Internal Kennel Name|INTERNAL/);
  assert.match(one.raw, /Good with<\/h2><ul class="chips"><li>Cats<\/li>/);
  // The fee comes from the adoptions area; until it is wired no fee is shown.
  assert.doesNotMatch(one.raw, /Adoption fee/);
  // Another slug, or none, redirects to the one address.
  const moved = await page(org, `/animals/${shown}/old-name`);
  assert.equal(moved.status, 301);
  assert.equal(moved.headers.location, `/animals/${shown}/mr-biscuit`);

  for (const id of [hidden, held, 'ani_nosuchanimal000000']) {
    const r = await page(org, `/animals/${id}/x`);
    assert.equal(r.status, 404);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.raw, /no longer listed/);
  }
  // Made non-public: 404 on the very next request (nothing is cached in Ark).
  assert.equal((await org.req('PATCH', `/api/v1/animals/${shown}`, { body: { isPublic: false } })).status, 200);
  assert.equal((await page(org, `/animals/${shown}/mr-biscuit`)).status, 404);
  assert.doesNotMatch((await page(org, '/animals')).raw, /Mr\. Biscuit/);
  // An animal whose stay ended (adopted) leaves the list too.
  const gone = await animal(org, { publicName: 'Adopted Andy' });
  assert.match((await page(org, '/animals')).raw, /Adopted Andy/);
  const out = await org.req('POST', `/api/animals/${gone}/outcomes`, { body: { occurred_at: new Date().toISOString(), type: 'adoption' } });
  assert.ok(out.status === 201 || out.status === 200, out.raw);
  assert.doesNotMatch((await page(org, '/animals')).raw, /Adopted Andy/);
});

test('filters, sort and paging: each page has its own address; past the last page is 404', async () => {
  const org = await makeOrg(t);
  await behaviourKeys(org);
  const ids: string[] = [];
  for (let i = 0; i < 26; i++)
    ids.push(
      await animal(org, { publicName: `Dog ${String(i).padStart(2, '0')}`, sex: i % 2 ? 'male' : 'female', dateOfBirth: '2020-05-01' }),
    );
  const cat = await animal(org, {
    publicName: 'Zelda Cat',
    species: 'cat',
    sex: 'female',
    dateOfBirth: new Date(Date.now() - 60 * 86400000).toISOString().slice(0, 10),
  });
  await org.req('PUT', `/api/animals/${cat}/behaviour`, { body: { values: { good_with_children: 'yes' } } });

  const first = await page(org, '/animals');
  assert.match(first.raw, /27 animals/);
  assert.equal((first.raw.match(/class="card"/g) ?? []).length, 24);
  assert.match(first.raw, /href="\/animals\?page=2" rel="next"/);
  assert.match(first.raw, /Page 1 of 2/);
  const second = await page(org, '/animals?page=2');
  assert.equal((second.raw.match(/class="card"/g) ?? []).length, 3);
  assert.match(second.raw, /rel="prev"/);
  assert.equal((await page(org, '/animals?page=3')).status, 404);
  assert.equal((await page(org, '/animals?page=abc')).status, 404);
  // Filters, each alone and combined; unknown values and parameters are ignored, never an error.
  const cats = await page(org, '/animals?species=cat');
  assert.match(cats.raw, /1 animal</);
  assert.match(cats.raw, /Zelda Cat/);
  assert.match((await page(org, '/animals?age=baby')).raw, /Zelda Cat/);
  assert.match((await page(org, '/animals?age=adult')).raw, /26 animals/);
  assert.match((await page(org, '/animals?sex=male')).raw, /13 animals/);
  assert.match((await page(org, '/animals?good_with=children')).raw, /1 animal</);
  assert.match((await page(org, '/animals?good_with=children&good_with=dogs')).raw, /No animals match/);
  assert.match((await page(org, '/animals?sex=robot&utm_source=x')).raw, /27 animals/);
  const byName = await page(org, '/animals?sort=name&sex=female');
  const names = [...byName.raw.matchAll(/class="nm">([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(names.slice(0, 2), ['Dog 00', 'Dog 02']);
  assert.equal(names.at(-1), 'Zelda Cat');
  // The JSON list the widget reads: same rules, Family B paging, any origin.
  const json = await request(t, org.host, 'GET', '/api/public/animals?limit=5&offset=25&sort=name', { key: null });
  assert.equal(json.status, 200);
  assert.equal(json.body.total, 27);
  assert.equal(json.body.results.length, 2);
  assert.equal(json.body.has_more, false);
  assert.equal(json.headers['access-control-allow-origin'], '*');
  assert.deepEqual(json.body.species.sort(), ['cat', 'dog']);
  assert.match(json.body.results[1].url, new RegExp(`^http://${org.host}/animals/${cat}/zelda-cat$`));
  assertErrorShape('/api/public/animals', await request(t, org.host, 'GET', '/api/public/animals?limit=500', { key: null }), 422);
  assertErrorShape('/api/public/animals', await request(t, org.host, 'GET', '/api/public/animals?sex=robot', { key: null }), 422);
});

test('caching: ETag and Last-Modified from the data, short Cache-Control, 304 on a match, a new ETag after a change', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Pepper' });
  for (const url of ['/', '/animals', `/animals/${id}/pepper`, '/sitemap.xml', '/feed.json', '/feed.xml']) {
    const r = await page(org, url);
    assert.equal(r.status, 200, url);
    const etag = String(r.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/, url);
    assert.equal(r.headers['cache-control'], 'public, max-age=0, s-maxage=30, stale-while-revalidate=30', url);
    const again = await page(org, url, { 'if-none-match': etag });
    assert.equal(again.status, 304, url);
    assert.equal(again.raw, '');
    if (r.headers['last-modified']) {
      assert.equal((await page(org, url, { 'if-modified-since': String(r.headers['last-modified']) })).status, 304, url);
      // If-None-Match wins: a stale ETag gets the page even with a matching date.
      const both = await page(org, url, { 'if-none-match': '"old"', 'if-modified-since': String(r.headers['last-modified']) });
      assert.equal(both.status, 200, url);
    }
  }
  const before = await page(org, `/animals/${id}/pepper`);
  assert.ok(before.headers['last-modified']);
  assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { publicName: 'Pepper Pot' } })).status, 200);
  const after = await page(org, `/animals/${id}/pepper-pot`, { 'if-none-match': String(before.headers.etag) });
  assert.equal(after.status, 200);
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.match(after.raw, /Pepper Pot/);
  // Site settings are part of every page's data.
  const home = await page(org, '/');
  await org.req('PATCH', '/api/settings/public-site', { body: { tagline: 'Dogs of the valley' } });
  const home2 = await page(org, '/', { 'if-none-match': String(home.headers.etag) });
  assert.equal(home2.status, 200);
  assert.match(home2.raw, /Dogs of the valley/);
});

test('sitemap, robots, feeds, widget and iframe; an address naming no organization is a 404 page', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { publicName: 'Rosie Rabbit', species: 'rabbit' });
  const sm = await page(org, '/sitemap.xml');
  assert.match(String(sm.headers['content-type']), /^application\/xml/);
  assert.match(sm.raw, new RegExp(`<loc>http://${org.host}/animals/${id}/rosie-rabbit</loc>`));
  const robots = await page(org, '/robots.txt');
  assert.match(robots.raw, new RegExp(`Sitemap: http://${org.host}/sitemap.xml`));
  assert.match(robots.raw, /Disallow: \/api\//);
  const jf = await page(org, '/feed.json');
  assert.equal(jf.body.version, 'https://jsonfeed.org/version/1.1');
  assert.equal(jf.body.items[0].title, 'Rosie Rabbit');
  const rss = await page(org, '/feed.xml');
  assert.match(rss.raw, /<rss version="2.0"/);
  assert.match(rss.raw, /<title>Rosie Rabbit<\/title>/);
  const w = await page(org, '/widget.js');
  assert.match(String(w.headers['content-type']), /^text\/javascript/);
  assert.equal(w.headers['cross-origin-resource-policy'], 'cross-origin');
  assert.match(w.raw, /attachShadow/);
  const home = await page(org, '/');
  assert.equal(home.headers['x-frame-options'], 'DENY');
  assert.match(String(home.headers['content-security-policy']), /frame-ancestors 'none'/);
  const frame = await page(org, '/embed');
  assert.equal(frame.status, 200);
  assert.equal(frame.headers['x-frame-options'], undefined);
  assert.match(String(frame.headers['content-security-policy']), /frame-ancestors \*/);
  assert.match(frame.raw, /target="_blank"/);
  const none = await request(t, 'nosuchorg.localhost', 'GET', '/animals', { key: null });
  assert.equal(none.status, 404);
  assert.match(String(none.headers['content-type']), /^text\/html/);
  // The bare address keeps its own `/` (the API documentation).
  const bare = await request(t, 'localhost', 'GET', '/', { key: null });
  assert.equal(bare.status, 302);
});

test('site settings: colours and texts show on the pages; bad values are 422; readers may read, only admins change', async () => {
  const org = await makeOrg(t);
  const S = '/api/settings/public-site';
  const got = await org.req('GET', S);
  assert.equal(got.status, 200);
  assert.equal(got.body.primary_colour, '#1f5f8b');
  assert.equal(got.body.widget, `<script src="http://${org.host}:${t.ctx.config.port}/widget.js" async></script>`);
  const put = await org.req('PATCH', S, {
    body: { primary_colour: '#AA3300', donation_url: 'https://give.example/rescue', how_to_foster: 'Call Jo.' },
  });
  assert.equal(put.status, 200, put.raw);
  assert.equal(put.body.primary_colour, '#aa3300');
  const home = await page(org, '/');
  assert.match(home.raw, /--p:#aa3300/);
  assert.match(home.raw, /href="https:\/\/give.example\/rescue"/);
  assert.match(home.raw, /Call Jo\./);
  assertErrorShape(S, await org.req('PATCH', S, { body: { primary_colour: 'red' } }), 422);
  assertErrorShape(S, await org.req('PATCH', S, { body: { donation_url: 'javascript:alert(1)' } }), 422);
  assertErrorShape(S, await org.req('PATCH', S, { body: { nope: 1 } }), 422);
  assertErrorShape(S, await org.req('PATCH', S, { body: { tagline: 'x' }, key: org.keys.staff }), 403);
});

test('every page links the one stylesheet, compressed, cached a year, 304 on a match; a page carries only its colours', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  assert.equal((await org.req('PATCH', '/api/settings/public-site', { body: { primary_colour: '#123456' } })).status, 200);
  const id = await animal(org, { publicName: 'Nutmeg' });
  const linked = (html: string) => /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1];
  const listPage = await page(org, '/animals');
  const href = linked(listPage.raw) ?? '';
  assert.match(href, /^\/assets\/site\.css\?v=[A-Za-z0-9_-]{12}$/);
  // The same address from every page of every organization: the home page, an animal, the friendly 404, another site.
  for (const [o, url] of [
    [org, '/'],
    [org, `/animals/${id}/nutmeg`],
    [org, '/animals/ani_nope'],
    [other, '/animals'],
  ] as const)
    assert.equal(linked((await page(o, url)).raw), href, url);
  // The page holds its organization's colours and none of the stylesheet's rules.
  assert.match(listPage.raw, /<style>:root\{--p:#123456;--a:#[0-9a-f]{6}\}<\/style>/);
  assert.doesNotMatch(listPage.raw, /\.card\{|box-sizing/);
  // The pages' content policy lets them load it from their own address, and nothing else but inline styles.
  assert.match(String(listPage.headers['content-security-policy']), /style-src 'self' 'unsafe-inline';/);

  const css = await page(org, href);
  assert.equal(css.status, 200);
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(css.raw, /\.card\s*\{/);
  assert.match(css.raw, /var\(--p\)/);
  assert.doesNotMatch(css.raw, /#123456/, 'no organization in the shared stylesheet');
  const etag = String(css.headers.etag);
  assert.equal(etag, `"${href.split('=')[1]}"`, 'the ETag is the version in the address');
  for (const [coding, unpack] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    const res = await t.app.inject({ method: 'GET', url: href, headers: { host: org.host, 'accept-encoding': coding } });
    assert.equal(res.headers['content-encoding'], coding);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(unpack(res.rawPayload).toString(), css.raw);
  }
  const again = await page(org, href, { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.raw, '');
  assert.equal((await page(org, href, { 'if-none-match': '"older"' })).status, 200);
});

// A real FTP server on loopback receives the uploads.
let ftpRoot: string;
let ftp: FtpSrv;
let ftpPort: number;
let slowLogin = 0;
before(async () => {
  ftpRoot = mkdtempSync(join(tmpdir(), 'ark-ftp-'));
  ftpPort = 20000 + Math.floor(Math.random() * 20000);
  ftp = new FtpSrv({
    url: `ftp://127.0.0.1:${ftpPort}`,
    pasv_url: '127.0.0.1',
    pasv_min: 40000,
    pasv_max: 60000,
    anonymous: false,
    greeting: 'test',
  });
  ftp.on('login', ({ username, password }, resolve, reject) => {
    const go = () => (password === 'secret' ? resolve({ root: ftpRoot }) : reject(new Error('bad password')));
    if (slowLogin) setTimeout(go, slowLogin);
    else go();
    void username;
  });
  await ftp.listen();
});
after(async () => {
  await ftp.close();
  rmSync(ftpRoot, { recursive: true, force: true });
});

test('syndication: Petfinder and Adopt-a-Pet files by FTP, photos by URL; the result and counts kept; never two runs at once', async () => {
  const org = await makeOrg(t);
  await behaviourKeys(org);
  const dob = new Date(Date.now() - 90 * 86400000).toISOString().slice(0, 10);
  const a = await animal(org, { publicName: 'Toby', breed: 'Labrador Mix', sex: 'male', dateOfBirth: dob, weight: 61 });
  await animal(org, { publicName: 'Hidden', isPublic: false });
  await org.req('PUT', `/api/animals/${a}/behaviour`, { body: { values: { good_with_dogs: 'no', good_with_children: 'yes' } } });
  await org.req('POST', `/api/animals/${a}/notes`, { body: { kind: 'adoption', body: 'A gentle soul.', visibility: 'shareable' } });
  const B = '/api/settings/syndication';
  const pf = await org.req('POST', B, {
    body: { format: 'petfinder', host: '127.0.0.1', port: ftpPort, username: 'XX123', password: 'secret', remote_dir: '/import' },
  });
  assert.equal(pf.status, 201, pf.raw);
  assert.equal(pf.body.password_set, true);
  assert.equal(pf.body.password, undefined);
  assert.equal(pf.body.last_status, null);
  const run = await org.req('POST', `${B}/${pf.body.id}/run`);
  assert.equal(run.status, 200, run.raw);
  assert.deepEqual(run.body, { status: 'ok', animals: 1, photos: 0, file: 'XX123.csv', error: null });
  const csv = readFileSync(join(ftpRoot, 'import', 'XX123.csv'), 'utf8').split('\n');
  assert.match(csv[0] ?? '', /^ID,Internal,AnimalName,PrimaryBreed,SecondaryBreed,Sex,Size,Age,Desc,Type,Status,/);
  assert.match(csv[1] ?? '', new RegExp(`^${a},${a},Toby,Labrador Mix,,M,L,Baby,`));
  assert.match(csv[1] ?? '', /A gentle soul\./);
  assert.doesNotMatch(csv.join('\n'), /Hidden|Internal Kennel Name|INTERNAL/);
  const shown = await org.req('GET', `${B}/${pf.body.id}`);
  assert.equal(shown.body.last_status, 'ok');
  assert.equal(shown.body.last_animals, 1);
  const log = await org.req('GET', `/api/audit?entity_type=syndication_target&entity_id=${pf.body.id}`);
  if (log.status === 200) assert.ok(JSON.stringify(log.body).includes('syndicate'));

  const ap = await org.req('POST', B, {
    body: { format: 'adoptapet', host: '127.0.0.1', port: ftpPort, username: 'ap1', password: 'secret', remote_dir: '/aap' },
  });
  assert.equal((await org.req('POST', `${B}/${ap.body.id}/run`)).body.status, 'ok');
  const pets = readFileSync(join(ftpRoot, 'aap', 'pets.csv'), 'utf8');
  assert.match(pets, new RegExp(`^"${a}","Dog","Labrador Mix","","0","Baby","Toby","L","M",`));
  assert.match(pets, /"Available","1","","0"/);
  assert.match(readFileSync(join(ftpRoot, 'aap', 'import.cfg'), 'utf8'), /#29:PhotoURL4=PhotoURL4/);

  // A wrong password: the run fails, the error is kept and shown.
  assert.equal((await org.req('PATCH', `${B}/${pf.body.id}`, { body: { password: 'wrong' } })).status, 200);
  const bad = await org.req('POST', `${B}/${pf.body.id}/run`);
  assert.equal(bad.body.status, 'failed');
  assert.ok(bad.body.error);
  const after = await org.req('GET', `${B}/${pf.body.id}`);
  assert.equal(after.body.last_status, 'failed');
  assert.equal(after.body.last_error, bad.body.error);

  // Two runs of one target at once: one runs, the other is refused.
  slowLogin = 400;
  try {
    const both = await Promise.all([org.req('POST', `${B}/${ap.body.id}/run`), org.req('POST', `${B}/${ap.body.id}/run`)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
  } finally {
    slowLogin = 0;
  }
  assertErrorShape(B, await org.req('POST', B, { body: { format: 'myspace', host: 'x', username: 'u', password: 'p' } }), 422);
  assertErrorShape(B, await org.req('POST', B, { body: { format: 'petfinder', host: 'bad host!', username: 'u', password: 'p' } }), 422);
  assert.equal((await org.req('DELETE', `${B}/${ap.body.id}`)).status, 204);
  assertErrorShape(B, await org.req('POST', `${B}/${ap.body.id}/run`), 404);
});

/**
 * A real SFTP server on loopback (ssh2's server side): password `secret`, files kept under a temporary folder.
 * It answers the requests an upload makes: LSTAT/STAT, MKDIR, OPEN, WRITE, CLOSE, REALPATH.
 */
async function sftpServer(root: string): Promise<{ port: number; close: () => Promise<void> }> {
  const { STATUS_CODE } = ssh2.utils.sftp;
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.password === 'secret') ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        acceptSession().on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const open = new Map<number, { path: string; data: Buffer }>();
          let next = 0;
          const local = (p: string) => join(root, p.replace(/^\/+/, ''));
          const attrs = (p: string) => {
            const st = statSync(p);
            return { mode: st.mode, uid: 0, gid: 0, size: st.size, atime: st.atimeMs / 1000, mtime: st.mtimeMs / 1000 };
          };
          const stat = (reqid: number, p: string) =>
            existsSync(local(p)) ? sftp.attrs(reqid, attrs(local(p))) : sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
          sftp.on('LSTAT', stat).on('STAT', stat);
          sftp.on('REALPATH', (reqid, p) => sftp.name(reqid, [{ filename: p === '.' ? '/' : p, longname: '', attrs: {} as never }]));
          sftp.on('MKDIR', (reqid, p) => {
            mkdirSync(local(p), { recursive: true });
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('OPEN', (reqid, filename) => {
            const h = Buffer.alloc(4);
            h.writeUInt32BE(++next);
            open.set(next, { path: local(filename), data: Buffer.alloc(0) });
            sftp.handle(reqid, h);
          });
          sftp.on('WRITE', (reqid, handle, offset, data) => {
            const f = open.get(handle.readUInt32BE(0));
            if (!f) return sftp.status(reqid, STATUS_CODE.FAILURE);
            const grown = Buffer.alloc(Math.max(f.data.length, offset + data.length));
            f.data.copy(grown);
            data.copy(grown, offset);
            f.data = grown;
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid, handle) => {
            const f = open.get(handle.readUInt32BE(0));
            if (f) writeFileSync(f.path, f.data);
            open.delete(handle.readUInt32BE(0));
            sftp.status(reqid, STATUS_CODE.OK);
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('syndication by SFTP: the file lands in its folder (made when missing); a wrong password fails; FTPS is ftp only', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ark-sftp-'));
  const sftp = await sftpServer(root);
  try {
    const org = await makeOrg(t);
    const a = await animal(org, { publicName: 'Sunny' });
    const B = '/api/settings/syndication';
    const made = await org.req('POST', B, {
      body: {
        format: 'petfinder',
        protocol: 'sftp',
        host: '127.0.0.1',
        port: sftp.port,
        username: 'PF9',
        password: 'secret',
        remote_dir: '/import',
      },
    });
    assert.equal(made.status, 201, made.raw);
    assert.equal(made.body.protocol, 'sftp');
    assert.equal(made.body.secure, false);
    const defaults = await org.req('POST', B, {
      body: { format: 'petfinder', protocol: 'sftp', host: 'sftp.example.org', username: 'u', password: 'p' },
    });
    assert.equal(defaults.body.port, 22, 'sftp defaults to port 22');
    const run = await org.req('POST', `${B}/${made.body.id}/run`);
    assert.equal(run.status, 200, run.raw);
    assert.deepEqual(run.body, { status: 'ok', animals: 1, photos: 0, file: 'PF9.csv', error: null });
    const csv = readFileSync(join(root, 'import', 'PF9.csv'), 'utf8');
    assert.match(csv, new RegExp(`\\n${a},${a},Sunny,`));
    assert.equal((await org.req('PATCH', `${B}/${made.body.id}`, { body: { password: 'wrong' } })).status, 200);
    const bad = await org.req('POST', `${B}/${made.body.id}/run`);
    assert.equal(bad.body.status, 'failed');
    assert.ok(bad.body.error);
    assertErrorShape(B, await org.req('PATCH', `${B}/${made.body.id}`, { body: { secure: true } }), 422);
    assertErrorShape(B, await org.req('POST', B, { body: { ...target, protocol: 'sftp', secure: true } }), 422);
    const ftps = await org.req('POST', B, { body: { ...target, secure: true } });
    assert.equal(ftps.status, 201, ftps.raw);
    const switched = await org.req('PATCH', `${B}/${ftps.body.id}`, { body: { protocol: 'sftp' } });
    assert.equal(switched.status, 200, switched.raw);
    assert.deepEqual([switched.body.protocol, switched.body.secure], ['sftp', false], 'switching to sftp turns FTPS off');
  } finally {
    await sftp.close();
    rmSync(root, { recursive: true, force: true });
  }
});

const target = { format: 'petfinder', host: '127.0.0.1', username: 'u', password: 'p' };
const makeTarget = async (o: TestOrg) => (await o.req('POST', '/api/settings/syndication', { body: target })).body.id as string;
securitySuite('public website settings', () => t, [
  { method: 'GET', path: () => '/api/settings/public-site', area: 'settings', level: 'read', singleton: true },
  { method: 'PATCH', path: () => '/api/settings/public-site', body: { tagline: 'x' }, area: 'settings', level: 'admin' },
  { method: 'GET', path: () => '/api/settings/syndication', area: 'settings', level: 'read', seed: makeTarget },
  { method: 'POST', path: () => '/api/settings/syndication', body: target, area: 'settings', level: 'admin' },
  { method: 'GET', path: async (o) => `/api/settings/syndication/${await makeTarget(o)}`, area: 'settings', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/settings/syndication/${await makeTarget(o)}`,
    body: { enabled: false },
    area: 'settings',
    level: 'admin',
  },
  { method: 'DELETE', path: async (o) => `/api/settings/syndication/${await makeTarget(o)}`, area: 'settings', level: 'admin' },
  { method: 'POST', path: async (o) => `/api/settings/syndication/${await makeTarget(o)}/run`, area: 'settings', level: 'admin' },
]);

test('the daily upload runs on the job queue: once per target and day, the next day queued by each run', async () => {
  const { runDueJobs, listJobs } = await import('../../platform/jobs.ts');
  const { SYNDICATE_JOB, nextSlot } = await import('./schedule.ts');
  const org = await makeOrg(t);
  await animal(org, { publicName: 'Scheduled Sam' });
  const made = await org.req('POST', '/api/settings/syndication', {
    body: { format: 'petfinder', host: '127.0.0.1', port: ftpPort, username: 'SCHED1', password: 'secret', remote_dir: '/sched' },
  });
  assert.equal(made.status, 201);
  const jobs = await listJobs(t.db, org.id, SYNDICATE_JOB);
  assert.equal(jobs.length, 1);
  assert.equal(new Date(jobs[0]?.run_at ?? 0).getTime(), nextSlot().getTime());
  // A second enqueue for the same day (a PATCH, another process) adds nothing.
  await org.req('PATCH', `/api/settings/syndication/${made.body.id}`, { body: { enabled: true } });
  assert.equal((await listJobs(t.db, org.id, SYNDICATE_JOB)).length, 1);
  // Make it due now, run what is due: the file is uploaded and tomorrow's run is queued.
  await t.db.query("UPDATE jobs SET run_at = now() - interval '1 second' WHERE organization_id = $1 AND kind = $2", [
    org.id,
    SYNDICATE_JOB,
  ]);
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id, kinds: [SYNDICATE_JOB] }), 1);
  const ran = await listJobs(t.db, org.id, SYNDICATE_JOB);
  assert.ok(
    ran.some((j) => j.status === 'done'),
    JSON.stringify(ran),
  );
  assert.match(readFileSync(join(ftpRoot, 'sched', 'SCHED1.csv'), 'utf8'), /Scheduled Sam/);
  const after = await listJobs(t.db, org.id, SYNDICATE_JOB);
  assert.deepEqual(after.map((j) => j.status).sort(), ['done', 'queued']);
  assert.equal((await org.req('GET', `/api/settings/syndication/${made.body.id}`)).body.last_status, 'ok');
  // A disabled target's job does nothing.
  await org.req('PATCH', `/api/settings/syndication/${made.body.id}`, { body: { enabled: false } });
  await t.db.query("UPDATE jobs SET run_at = now() - interval '1 second' WHERE organization_id = $1 AND status = 'queued'", [org.id]);
  await runDueJobs(t.ctx, { orgId: org.id, kinds: [SYNDICATE_JOB] });
  const last = (await listJobs(t.db, org.id, SYNDICATE_JOB)).find((j) => j.result && JSON.stringify(j.result).includes('disabled'));
  assert.ok(last, 'the disabled target was skipped');
});

test('size from the weight at the band edges; location filter; links keep the other filters; Size in the syndication files', async () => {
  const org = await makeOrg(t);
  const loc = async (name: string) => {
    const r = await org.req('POST', '/api/animals/locations', { body: { name, type: 'shelter' } });
    assert.equal(r.status, 201, r.raw);
    return r.body.id as string;
  };
  const north = await loc('North Shelter');
  const south = await loc('South Shelter');
  const unit = await org.req('POST', '/api/animals/housing-units', {
    body: { location_id: south, name: 'K1', type: 'kennel', capacity: 5 },
  });
  assert.equal(unit.status, 201, unit.raw);
  const ids: Record<string, string> = {};
  for (const [name, weight, locationId] of [
    ['Small Sam', 25, north],
    ['Medium Mia', 26, north],
    ['Large Lou', 100, unit.body.id],
    ['Huge Hank', 101, south],
    ['Unweighed Uma', null, null],
    ['Tiny Tim', 4.5, south],
  ] as const)
    ids[name] = await animal(org, { publicName: name, sex: name === 'Medium Mia' ? 'female' : 'male', weight, locationId });
  const names = (raw: string) => [...raw.matchAll(/class="nm">([^<]+)</g)].map((m) => m[1]).sort();

  // Edges: 25 small, 26 medium, 100 large, 101 extra large; no weight matches no size.
  assert.deepEqual(names((await page(org, '/animals?size=small')).raw), ['Small Sam', 'Tiny Tim']);
  assert.deepEqual(names((await page(org, '/animals?size=medium')).raw), ['Medium Mia']);
  assert.deepEqual(names((await page(org, '/animals?size=large')).raw), ['Large Lou']);
  assert.deepEqual(names((await page(org, '/animals?size=xlarge')).raw), ['Huge Hank']);
  assert.match((await page(org, '/animals?size=huge')).raw, /6 animals/); // unknown value ignored
  const json = await request(t, org.host, 'GET', '/api/public/animals?sort=name', { key: null });
  assert.equal(json.status, 200, json.raw);
  assert.deepEqual(Object.fromEntries(json.body.results.map((r: { name: string; size: string | null }) => [r.name, r.size])), {
    'Huge Hank': 'xlarge',
    'Large Lou': 'large',
    'Medium Mia': 'medium',
    'Small Sam': 'small',
    'Tiny Tim': 'small',
    'Unweighed Uma': null,
  });
  const bySize = await request(t, org.host, 'GET', '/api/public/animals?size=medium', { key: null });
  assert.deepEqual(
    bySize.body.results.map((r: { name: string }) => r.name),
    ['Medium Mia'],
  );
  assertErrorShape('/api/public/animals', await request(t, org.host, 'GET', '/api/public/animals?size=huge', { key: null }), 422);
  // The animal page shows the size, or that it is not known.
  assert.match((await page(org, `/animals/${ids['Large Lou']}/large-lou`)).raw, /<dt>Size<\/dt><dd>Large \(61–100 lb\)<\/dd>/);
  assert.match((await page(org, `/animals/${ids['Unweighed Uma']}/unweighed-uma`)).raw, /<dt>Size<\/dt><dd>Not known<\/dd>/);

  // Location: the site's animals, those in its housing units too; an animal with no location under none.
  const list = await page(org, '/animals');
  assert.match(list.raw, /<select name="location_id">/);
  assert.match(list.raw, new RegExp(`<option value="${north}">North Shelter</option><option value="${south}">South Shelter</option>`));
  assert.deepEqual(names((await page(org, `/animals?location_id=${north}`)).raw), ['Medium Mia', 'Small Sam']);
  assert.deepEqual(names((await page(org, `/animals?location_id=${south}`)).raw), ['Huge Hank', 'Large Lou', 'Tiny Tim']);
  assert.match((await page(org, '/animals?location_id=loc_nosuch')).raw, /No animals match/);
  assert.deepEqual(names((await page(org, `/animals?location_id=${south}&size=small`)).raw), ['Tiny Tim']);
  const j = await request(t, org.host, 'GET', `/api/public/animals?location_id=${north}&sort=name`, { key: null });
  assert.deepEqual(
    j.body.results.map((r: { name: string }) => r.name),
    ['Medium Mia', 'Small Sam'],
  );
  assert.deepEqual(j.body.locations, [
    { id: north, name: 'North Shelter' },
    { id: south, name: 'South Shelter' },
  ]);
  assertErrorShape('/api/public/animals', await request(t, org.host, 'GET', '/api/public/animals?location_id=a%20b', { key: null }), 422);

  // Paging links keep every other filter (one address per page).
  for (let i = 0; i < 25; i++) await animal(org, { publicName: `Pup ${i}`, sex: 'male', weight: 30, locationId: north });
  const p1 = await page(org, `/animals?sex=male&size=medium&location_id=${north}&sort=name`);
  assert.match(p1.raw, /25 animals/);
  const q = `sex=male&amp;size=medium&amp;location_id=${north}&amp;sort=name`;
  assert.match(p1.raw, new RegExp(`href="/animals\\?${q}&amp;page=2" rel="next"`));
  assert.match(p1.raw, new RegExp(`rel="canonical" href="http://${org.host}/animals\\?${q}"`));
  const p2 = await page(org, `/animals?sex=male&size=medium&location_id=${north}&sort=name&page=2`);
  assert.equal(p2.status, 200);
  assert.match(p2.raw, new RegExp(`href="/animals\\?${q}" rel="prev"`));
  assert.match(p2.raw, /<option value="medium" selected>/);
  assert.match(p2.raw, new RegExp(`<option value="${north}" selected>`));

  // One location only: no location choice offered.
  const other = await makeOrg(t);
  const only = (await other.req('POST', '/api/animals/locations', { body: { name: 'Only', type: 'shelter' } })).body.id;
  await animal(other, { publicName: 'Solo', locationId: only });
  await animal(other, { publicName: 'Fostered' });
  assert.doesNotMatch((await page(other, '/animals')).raw, /name="location_id"/);

  // Syndication: S / M / L / XL from the weight, blank without one.
  const B = '/api/settings/syndication';
  const pf = await org.req('POST', B, {
    body: { format: 'petfinder', host: '127.0.0.1', port: ftpPort, username: 'SZ1', password: 'secret', remote_dir: '/sizes' },
  });
  assert.equal(pf.status, 201, pf.raw);
  assert.equal((await org.req('POST', `${B}/${pf.body.id}/run`)).body.status, 'ok');
  const rows = readFileSync(join(ftpRoot, 'sizes', 'SZ1.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const sizeOfRow = (name: string) => rows.find((r) => r.split(',')[2] === name)?.split(',')[6];
  assert.deepEqual(['Small Sam', 'Medium Mia', 'Large Lou', 'Huge Hank', 'Unweighed Uma'].map(sizeOfRow), ['S', 'M', 'L', 'XL', '']);
  const ap = await org.req('POST', B, {
    body: { format: 'adoptapet', host: '127.0.0.1', port: ftpPort, username: 'ap2', password: 'secret', remote_dir: '/sizes2' },
  });
  assert.equal((await org.req('POST', `${B}/${ap.body.id}/run`)).body.status, 'ok');
  const pets = readFileSync(join(ftpRoot, 'sizes2', 'pets.csv'), 'utf8');
  assert.match(pets, /"Huge Hank","XL",/);
  assert.match(pets, /"Unweighed Uma","",/);
});
