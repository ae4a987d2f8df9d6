import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { testApp, request, type TestApp } from '../../test/harness.ts';
import { base62 } from '../platform/ids.ts';
import { ark, arkProcess } from './cli.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp({}, undefined, { listen: true });
});
after(async () => t.close());

const slug = () => `cli-${base62(8).toLowerCase()}`;

test('org create, role create, key create (key alone on the last line), key list, key revoke', async () => {
  const s = slug();
  const made = await ark([
    'org',
    'create',
    s,
    '--name',
    'CLI Rescue',
    '--currency',
    'CAD',
    '--time-zone',
    'America/Toronto',
    '--country',
    'CA',
  ]);
  assert.equal(made.code, 0, made.stderr);
  const org = await t.db.query<{ currency: string; time_zone: string; country: string }>(
    'SELECT currency, time_zone, country FROM organizations WHERE slug = $1',
    [s],
  );
  assert.deepEqual(org[0], { currency: 'CAD', time_zone: 'America/Toronto', country: 'CA' });
  const role = await ark(['role', 'create', s, 'kennel', '--grant', 'animals:write', '--grant', 'people:read']);
  assert.equal(role.code, 0, role.stderr);
  // The binary itself, as a terminal runs it: exit code 0 and the key alone on the last line of its output.
  const key = arkProcess(['key', 'create', s, '--role', 'kennel', '--label', 'kennel tablet']);
  assert.equal(key.code, 0, key.stderr);
  const lines = key.stdout.trim().split('\n');
  const secret = lines[lines.length - 1] ?? '';
  assert.match(secret, /^ark_live_[0-9A-Za-z]{40}$/);
  const host = `${s}.localhost`;
  assert.equal((await request(t, host, 'GET', '/api/v1/animals', { key: secret })).status, 200);
  assert.equal((await request(t, host, 'GET', '/api/v1/donations', { key: secret })).status, 403);
  const list = await ark(['key', 'list', s]);
  assert.equal(list.code, 0);
  assert.match(list.stdout, /kennel/);
  assert.ok(!list.stdout.includes(secret));
  const keyId = /^(key_\w+)/m.exec(list.stdout)?.[1] ?? '';
  const revoke = await ark(['key', 'revoke', s, keyId]);
  assert.equal(revoke.code, 0, revoke.stderr);
  // The server process hears of the revocation (LISTEN/NOTIFY) without being told directly.
  let status = 200;
  for (let i = 0; i < 50 && status !== 401; i++) {
    status = (await request(t, host, 'GET', '/api/v1/animals', { key: secret })).status;
    if (status !== 401) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(status, 401);
});

test('bad arguments print one line on stderr, exit 2, and leave nothing half-made', async () => {
  const s = slug();
  const cases = [
    ['org', 'create', 'Bad Slug', '--name', 'x'],
    ['org', 'create', s],
    ['org', 'create', s, '--name', 'x', '--currency', 'ZZZ'],
    ['org', 'create', s, '--name', 'x', '--time-zone', 'Mars/Base'],
    ['org', 'create', s, '--name', 'x', '--country', 'QQ'],
    ['org', 'create', s, '--name', 'x', '--bogus', 'y'],
    ['role', 'create', 'no-such-org-x', 'r', '--grant', 'animals:read'],
    ['key', 'create', 'no-such-org-x', '--role', 'admin'],
    ['key', 'create', s],
    ['frobnicate'],
  ];
  for (const args of cases) {
    const res = await ark(args);
    assert.equal(res.code, 2, `${args.join(' ')} → ${res.code}: ${res.stderr}`);
    assert.equal(res.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, /^ark: /);
  }
  assert.equal((await t.db.query('SELECT 1 FROM organizations WHERE slug = $1', [s])).length, 0);
  assert.equal((await ark(['org', 'create', s, '--name', 'Once'])).code, 0);
  const again = await ark(['org', 'create', s, '--name', 'Twice']);
  assert.equal(again.code, 2);
  const bad = await ark(['role', 'create', s, 'r', '--grant', 'animals:owner']);
  assert.equal(bad.code, 2);
  assert.equal((await ark(['key', 'create', s, '--role', 'nope'])).code, 2);
  assert.equal((await ark(['key', 'revoke', s, 'key_nope'])).code, 2);
});

test('CLI errors are sentences with a subject', async () => {
  const s = slug();
  assert.equal((await ark(['org', 'create', s, '--name', 'Words'])).code, 0);
  assert.equal(
    (await ark(['role', 'create', s, 'admin', '--grant', 'animals:read'])).stderr.trim(),
    'ark: a role named admin already exists',
  );
  assert.equal((await ark(['key', 'create', s, '--role', 'nosuch'])).stderr.trim(), 'ark: there is no role named nosuch');
  assert.equal(
    (await ark(['key', 'create', 'no-such-org-x', '--role', 'admin'])).stderr.trim(),
    'ark: there is no organization no-such-org-x; make it with: ark org create no-such-org-x --name <name>',
  );
  assert.equal((await ark(['key', 'revoke', s, 'key_nope'])).stderr.trim(), `ark: there is no key key_nope in ${s}`);
  assert.equal((await ark(['frobnicate'])).stderr.trim(), 'ark: ark frobnicate is not a command; see ark --help');
});

test('seed fills an organization with sample records for every area, once', async () => {
  const s = slug();
  assert.equal((await ark(['org', 'create', s, '--name', 'Seeded'])).code, 0);
  // Sample photos and documents go to the blob store under ARK_DATA_DIR: a temporary one here.
  const files = mkdtempSync(path.join(tmpdir(), 'ark-seed-'));
  const res = await ark(['seed', s], { ARK_DATA_DIR: files });
  assert.equal(res.code, 0, res.stderr);
  const org = (await t.db.query<{ id: string }>('SELECT id FROM organizations WHERE slug = $1', [s]))[0]?.id;
  const count = async (sql: string) => Number((await t.db.query<{ n: string }>(sql, [org]))[0]?.n);
  assert.ok((await count('SELECT count(*) AS n FROM animals WHERE organization_id = $1')) >= 50);
  assert.equal(await count('SELECT count(DISTINCT status_id) AS n FROM animals WHERE organization_id = $1'), 9);
  assert.ok((await count('SELECT count(DISTINCT species) AS n FROM animals WHERE organization_id = $1')) >= 3);
  assert.ok((await count('SELECT count(*) AS n FROM people WHERE organization_id = $1')) >= 30);
  for (const role of ['adopter', 'foster', 'volunteer', 'donor']) {
    assert.ok((await t.db.query('SELECT 1 FROM people WHERE organization_id = $1 AND $2 = ANY(roles)', [org, role])).length > 0, role);
  }
  assert.ok((await count('SELECT count(*) AS n FROM donations WHERE organization_id = $1')) >= 40);
  assert.equal(await count('SELECT count(DISTINCT type) AS n FROM donations WHERE organization_id = $1'), 3);
  assert.ok((await count('SELECT count(*) AS n FROM animal_photos WHERE organization_id = $1 AND is_primary')) >= 6);
  // A new public site opens on photos, not placeholders: every animal it lists has a public one.
  assert.ok((await count('SELECT count(*) AS n FROM public_listing WHERE organization_id = $1')) > 0);
  assert.equal(
    await count(`SELECT count(*) AS n FROM public_listing l WHERE l.organization_id = $1 AND NOT EXISTS
                   (SELECT 1 FROM animal_photos p WHERE p.organization_id = $1 AND p.animal_id = l.animal_id AND p.is_public)`),
    0,
  );
  const twice = await ark(['seed', s], { ARK_DATA_DIR: files });
  assert.equal(twice.code, 2);
  rmSync(files, { recursive: true, force: true });
});

test('the binary answers a bad command with one line on stderr and exit code 2, and --help with exit code 0', () => {
  const bad = arkProcess(['frobnicate']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'ark: ark frobnicate is not a command; see ark --help\n');
  assert.equal(bad.stdout, '');
  const help = arkProcess(['--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage:\n {2}ark org create/);
});

// It starts PostgreSQL of its own from the npm binaries, whichever store the run uses: once per run is enough.
const firstStore = (process.env.ARK_TEST_STORES ?? 'embedded,postgresql').split(',')[0];
const onceOnly = process.env.ARK_TEST_STORE && process.env.ARK_TEST_STORE !== firstStore ? 'runs on the first store only' : false;

test('the embedded store: commands start PostgreSQL from the npm binaries and keep their data between commands', { skip: onceOnly }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ark-cli-'));
  try {
    const env = { DATABASE_URL: '', ARK_DATA_DIR: dir };
    const made = arkProcess(['org', 'create', 'embedded', '--name', 'Embedded Rescue'], env);
    assert.equal(made.code, 0, made.stderr);
    const key = arkProcess(['key', 'create', 'embedded', '--role', 'admin'], env);
    assert.equal(key.code, 0, key.stderr);
    const list = arkProcess(['key', 'list', 'embedded'], env);
    assert.match(list.stdout, /admin/);
    assert.equal(arkProcess(['migrate'], env).stdout.trim(), 'Up to date');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('platform-wide suppressions from the command line', async () => {
  const address = `blocked-${base62(6).toLowerCase()}@example.com`;
  assert.equal((await ark(['suppression', 'add', 'not-an-address'])).code, 2);
  const add = await ark(['suppression', 'add', address, '--reason', 'complaint']);
  assert.equal(add.code, 0, add.stderr);
  assert.match((await ark(['suppression', 'list'])).stdout, new RegExp(address.replace('.', '\\.')));
  assert.equal((await ark(['suppression', 'remove', address])).code, 0);
  assert.doesNotMatch((await ark(['suppression', 'list'])).stdout, new RegExp(address.replace('.', '\\.')));
});

test('member invite prints a one-time sign-in link on its last line, which signs the member in once', async () => {
  const s = slug();
  assert.equal((await ark(['org', 'create', s, '--name', 'Invite Rescue'])).code, 0);
  const bad = await ark(['member', 'invite', s, '--email', 'not-an-address', '--role', 'admin']);
  assert.equal(bad.code, 2);
  const made = await ark(['member', 'invite', s, '--email', 'Lead@Example.org', '--role', 'admin']);
  assert.equal(made.code, 0, made.stderr);
  const link = made.stdout.trim().split('\n').at(-1) ?? '';
  assert.match(link, new RegExp(`^http://${s}\\.localhost:\\d+/app/invite/[A-Za-z0-9]{43}$`));
  const token = link.split('/').at(-1);
  const host = `${s}.localhost`;
  const accepted = await request(t, host, 'POST', '/api/session/invitation', { body: { token, password: 'a good long password' } });
  assert.equal(accepted.status, 200, accepted.raw);
  assert.equal(accepted.body.member.role, 'admin');
  assert.equal(accepted.body.member.name, 'Lead');
  const again = await request(t, host, 'POST', '/api/session/invitation', { body: { token, password: 'a good long password' } });
  assert.equal(again.status, 410);
});
