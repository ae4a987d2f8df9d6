/**
 * The public website under load (part of `npm run bench`): an organization with 10,000 realistic animals
 * of which 3,000 adoptable (public, in care, no hold), served by Ark as `npm start` runs it (no response
 * cache anywhere). Lines: one animal page, list pages 1 and 30, each with its ratio to GET one animal
 * through the API, 20 connections. Then Lighthouse (Debian's Chromium) on /animals and an animal page.
 *
 * Uses DATABASE_URL when set, else a throwaway embedded PostgreSQL. BENCH_SECONDS and BENCH_ROUNDS tune
 * it; BENCH_LIGHTHOUSE=0 skips Lighthouse.
 */
import http from 'node:http';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import { grow } from './seed.ts';
import { benchStore, startArk } from './setup.ts';
import { CONNECTIONS, TOOL, drive, median, useIds, type Target } from './load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const { url, db, admin, stop: stopStore } = await benchStore('public');

const slug = `pub-${base62(6).toLowerCase()}`;
const org = await createOrganization(db, { slug, name: 'Valley Animal Rescue' });
if (!org) throw new Error('no organization');
const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
console.log('Seeding 10,000 animals, 3,000 of them adoptable…');
await grow(admin, org.id, { animals: 10_000, people: 0, donations: 0, messages: 0 });
// 3,300 public animals with an open stay, 300 of them on a hold in force: 3,000 adoptable. The seed
// gives every animal its stays; a public one whose last stay is closed comes back in (a new intake
// at its last outcome).
await admin.query(
  `WITH pick AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM animals WHERE organization_id = $1)
   UPDATE animals a SET is_public = (p.n <= 3300) FROM pick p WHERE a.organization_id = $1 AND a.id = p.id`,
  [org.id],
);
await admin.query(
  `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, intake_by, created_at, updated_at)
   SELECT a.organization_id, 'sty_' || substr(md5(a.id), 1, 20), a.id,
          COALESCE((SELECT max(s.outcome_at) FROM animal_stays s WHERE s.organization_id = a.organization_id AND s.animal_id = a.id),
                   a.intake_date::timestamptz), 'stray', 'healthy', 'bench', now(), now()
     FROM animals a
    WHERE a.organization_id = $1 AND a.is_public
      AND NOT EXISTS (SELECT 1 FROM animal_stays s
                       WHERE s.organization_id = a.organization_id AND s.animal_id = a.id AND s.outcome_at IS NULL)`,
  [org.id],
);
await admin.query(
  `INSERT INTO animal_holds (organization_id, id, animal_id, reason, starts_at, placed_by)
   SELECT organization_id, 'hld_' || substr(md5(id), 1, 20), id, 'medical', now() - interval '1 day', 'bench'
     FROM animals WHERE organization_id = $1 AND is_public ORDER BY id DESC LIMIT 300`,
  [org.id],
);
// As autovacuum leaves a table after a bulk change (the update above touched every row): visibility map set, so the
// list's ids come from index-only scans.
await admin.query('VACUUM ANALYZE');
const adoptable = (
  await admin.query<{ id: string; public_name: string }>(
    `SELECT a.id, a.public_name FROM animals a WHERE a.organization_id = $1 AND a.is_public
        AND NOT EXISTS (SELECT 1 FROM animal_holds h WHERE h.organization_id = a.organization_id AND h.animal_id = a.id)
      ORDER BY a.id`,
    [org.id],
  )
).rows;
console.log(`${adoptable.length} adoptable animals`);
const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'animal';
const first = adoptable[0];
if (!first) throw new Error('no adoptable animal');

const { origin, stop: stopArk } = await startArk(url);

const host = `${slug}.localhost`;
useIds(
  adoptable.map((a) => `${a.id}/${slugOf(a.public_name)}`),
  'pages',
);
useIds(
  adoptable.map((a) => a.id),
  'animals',
);
const lines: Target[] = [
  {
    name: 'API GET /api/v1/animals/{id} (reference)',
    origin,
    method: 'GET',
    path: '/api/v1/animals/{id}',
    headers: { host, authorization: `Bearer ${key}` },
  },
  { name: 'page /animals/{id}/{slug}', ids: 'pages', origin, method: 'GET', path: '/animals/{id}', headers: { host } },
  { name: 'page /animals (list page 1)', origin, method: 'GET', path: '/animals', headers: { host } },
  { name: 'page /animals?page=30', origin, method: 'GET', path: '/animals?page=30', headers: { host } },
  // The public animals (3,300) as a listing site or an integrator reads them: 100-row pages through the API.
  {
    name: 'API public list, 100 rows, page 1',
    origin,
    method: 'GET',
    path: '/api/v1/animals?isPublic=true&perPage=100',
    headers: { host, authorization: `Bearer ${key}` },
  },
  {
    name: 'API public list, 100 rows, page 30',
    origin,
    method: 'GET',
    path: '/api/v1/animals?isPublic=true&perPage=100&page=30',
    headers: { host, authorization: `Bearer ${key}` },
  },
];
/** Rows each answer carries, for the lines that read a list through the API (rows/s = req/s × rows). */
const rowsPer = new Map<string, number>();
for (const t of lines.slice(4)) {
  const text = await new Promise<string>((resolve, reject) => {
    http
      .get(`${origin}${t.path}`, { headers: t.headers }, (res) => {
        let b = '';
        res.on('data', (c: Buffer) => {
          b += c.toString();
        });
        res.on('end', () => resolve(b));
      })
      .on('error', reject);
  });
  rowsPer.set(t.name, ((JSON.parse(text) as { data?: unknown[] }).data ?? []).length);
}
console.log(
  `\nPublic website, 10,000 animals / 3,000 adoptable, ${CONNECTIONS} connections (${TOOL}), ${ROUNDS}×${SECONDS}s, median round`,
);
const results = new Map<string, number[]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const t of lines) {
    const p = await drive(t, SECONDS);
    if (p.bad) console.log(`  ! ${t.name}: ${p.bad} bad answers`);
    results.set(t.name, [...(results.get(t.name) ?? []), p.rps]);
  }
}
const ref = median(results.get(lines[0]?.name ?? '') ?? []);
for (const t of lines) {
  const rps = median(results.get(t.name) ?? []);
  const rows = rowsPer.get(t.name);
  console.log(
    `  ${t.name.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s   ${(rps / ref).toFixed(2)}× the API read` +
      (rows ? `   ${(rps * rows).toFixed(0)} rows/s (${rows} a page)` : ''),
  );
}

if (process.env.BENCH_LIGHTHOUSE !== '0') {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const site = `http://${host}:${new URL(origin).port}`;
  console.log('\nLighthouse (mobile, default throttling):');
  for (const u of [`${site}/animals`, `${site}/animals/${first.id}/${slugOf(first.public_name)}`]) {
    const r = await lighthouse(u, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    const c = r?.lhr.categories ?? {};
    const s = (k: string) => Math.round((c[k]?.score ?? 0) * 100);
    console.log(
      `  ${u.replace(site, '')}: performance ${s('performance')}, accessibility ${s('accessibility')}, ` +
        `best practices ${s('best-practices')}, SEO ${s('seo')}`,
    );
    for (const [id, a] of Object.entries(r?.lhr.audits ?? {}))
      if (a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
        console.log(`    - ${id}: ${a.title}`);
  }
  chrome.kill();
}

await stopArk();
await stopStore();
