/**
 * The public site at scale (`npm run bench -- --scale` runs it after the staff lines; alone:
 * `node --import tsx bench/public-scale.ts`): one organization grown to each of BENCH_SIZES animals (default
 * 10,000, 100,000 and 1,000,000), 30% of them adoptable (public, in care, 1 in 100 of those on a hold in force: the
 * audit's shape, 300k adoptable at 1M), served by Ark as `npm start` runs it. Lines: the list page and the public JSON
 * list with the response cache warm, cold (every request a new address, so every one is built), and a 304; an
 * animal page warm (200 hot animals), cold (any adoptable animal, each request a miss) and a 304. Each line prints
 * req/s, p50/p99 and CPU per request (Ark's process + PostgreSQL), and after the last size its growth
 * (largest ÷ smallest: "flat" when the CPU per request stays within 2×).
 *
 * Side by side with Animal Shelter Manager 3: `--asm3 <baseUrl> --asm3-pid <pid>` (or ASM3_URL / ASM3_PID; see
 * bench/asm3.ts) drives its cached list and animal page alternating with Ark's warm and cold lines after each size
 * and prints the ratios against the targets (≥ 10× warm, ≥ 2× cold).
 * Without it Ark's figures are printed alone. DATABASE_URL, else a throwaway embedded PostgreSQL;
 * BENCH_SECONDS (default 4) and BENCH_ROUNDS (default 3) per line.
 */
import http from 'node:http';
import { createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import { grow } from './seed.ts';
import { benchStore, startArk } from './setup.ts';
import { asm3Options, sideBySide } from './asm3.ts';
import { CONNECTIONS, CpuMeter, TOOL, drive, median, useIds, type Pass, type Target } from './load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);

function get(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? '') }));
      })
      .on('error', reject);
  });
}

const { url, db, admin, stop: stopStore } = await benchStore('public-scale');
const slug = `pubs-${base62(6).toLowerCase()}`;
const org = await createOrganization(db, { slug, name: 'Valley Animal Rescue' });
if (!org) throw new Error('no organization');

/** 30% of the animals public and in care (an open stay), 1% of those on a hold in force; the listing rebuilt. */
async function shape(): Promise<{ id: string; slug: string }[]> {
  await admin.query('ALTER TABLE animals DISABLE TRIGGER USER');
  await admin.query(`UPDATE animals SET is_public = (hashtext(id) % 10 + 10) % 10 < 3 WHERE organization_id = $1`, [org.id]);
  await admin.query('ALTER TABLE animals ENABLE TRIGGER USER');
  await admin.query('ALTER TABLE animal_stays DISABLE TRIGGER USER');
  await admin.query(
    `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, intake_by, created_at, updated_at)
     SELECT a.organization_id, 'sty_' || substr(md5(a.id || 'pub'), 1, 20), a.id,
            COALESCE((SELECT max(s.outcome_at) FROM animal_stays s WHERE s.organization_id = a.organization_id AND s.animal_id = a.id),
                     a.intake_date::timestamptz), 'stray', 'healthy', 'bench', now(), now()
       FROM animals a
      WHERE a.organization_id = $1 AND a.is_public
        AND NOT EXISTS (SELECT 1 FROM animal_stays s
                         WHERE s.organization_id = a.organization_id AND s.animal_id = a.id AND s.outcome_at IS NULL)
     ON CONFLICT DO NOTHING`,
    [org.id],
  );
  await admin.query('ALTER TABLE animal_stays ENABLE TRIGGER USER');
  await admin.query('ALTER TABLE animal_holds DISABLE TRIGGER USER');
  await admin.query(
    `INSERT INTO animal_holds (organization_id, id, animal_id, reason, starts_at, placed_by)
     SELECT organization_id, 'hld_' || substr(md5(id), 1, 20), id, 'medical', now() - interval '1 day', 'bench'
       FROM animals WHERE organization_id = $1 AND is_public AND hashtext(id || 'h') % 100 = 0
     ON CONFLICT DO NOTHING`,
    [org.id],
  );
  await admin.query('ALTER TABLE animal_holds ENABLE TRIGGER USER');
  await admin.query('SELECT public_listing_rebuild($1)', [org.id]);
  await admin.query('VACUUM ANALYZE');
  const rows = (
    await admin.query<{ id: string; public_name: string }>(
      `SELECT l.animal_id AS id, a.public_name FROM public_listing l
         JOIN animals a ON a.organization_id = l.organization_id AND a.id = l.animal_id
        WHERE l.organization_id = $1
          AND NOT EXISTS (SELECT 1 FROM animal_live_holds h WHERE h.organization_id = $1 AND h.animal_id = l.animal_id)`,
      [org.id],
    )
  ).rows;
  const slugOf = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'animal';
  return rows.map((r) => ({ id: r.id, slug: slugOf(r.public_name) }));
}

const { ark, origin, stop: stopArk } = await startArk(url);
const meter = new CpuMeter(ark.pid ?? 0, admin);
const host = `${slug}.localhost`;
const gz = { host, 'accept-encoding': 'br, gzip' };

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  cpu: number | null;
}
const table = new Map<number, Row[]>();
async function measure(t: Target, useMeter = true): Promise<Row> {
  const passes: Pass[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // A cold line builds every answer: the cache is emptied (a public change) before each round.
    if (t.name.includes('cold')) await admin.query('SELECT public_site_changed($1)', [org.id]);
    passes.push(await drive(t, SECONDS, useMeter ? meter : undefined));
  }
  const rps = passes.map((p) => p.rps);
  const mid = passes.find((p) => p.rps === median(rps)) ?? passes[0];
  const cpus = passes.map((p) => p.cpuUs).filter((c): c is number => c !== null);
  return {
    name: t.name,
    rps: median(rps),
    p50: mid?.p50 ?? NaN,
    p99: median(passes.map((p) => p.p99)),
    cpu: cpus.length ? median(cpus) : null,
  };
}
const print = (r: Row) =>
  console.log(
    `  ${r.name.padEnd(46)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)}ms  p99 ${r.p99
      .toFixed(1)
      .padStart(6)}ms  ${r.cpu === null ? '' : `CPU ${r.cpu.toFixed(0).padStart(6)} µs/req`}`,
  );

const asm3 = asm3Options();

for (const size of SIZES) {
  const t0 = Date.now();
  console.log(`\nLoading ${size.toLocaleString()} animals…`);
  await grow(admin, org.id, { animals: size, people: 0, donations: 0, messages: 0 });
  const adoptable = await shape();
  console.log(`  ${adoptable.length.toLocaleString()} adoptable, loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  useIds(
    adoptable.map((a) => `${a.id}/${a.slug}`),
    'pages',
  );
  useIds(
    adoptable.slice(0, 200).map((a) => `${a.id}/${a.slug}`),
    'hot',
  );
  const first = adoptable[0];
  if (!first) throw new Error('no adoptable animal');
  const animalUrl = `/animals/${first.id}/${first.slug}`;
  const listTag = (await get(`${origin}/animals`, gz)).etag;
  const animalTag = (await get(`${origin}${animalUrl}`, gz)).etag;
  const lines: Target[] = [
    { name: 'list /animals, cache warm', origin, method: 'GET', path: '/animals', headers: gz },
    { name: 'list /animals, cache cold (new address each)', origin, method: 'GET', path: '/animals?ref={u}', headers: gz },
    { name: 'list /animals, 304', origin, method: 'GET', path: '/animals', headers: { ...gz, 'if-none-match': listTag } },
    { name: 'list /animals?species=cat&sex=female, warm', origin, method: 'GET', path: '/animals?species=cat&sex=female', headers: gz },
    { name: 'list /animals?age=adult, cold', origin, method: 'GET', path: '/animals?age=adult&ref={u}', headers: gz },
    { name: 'JSON /api/public/animals, warm', origin, method: 'GET', path: '/api/public/animals', headers: gz },
    { name: 'animal page, warm (200 hot animals)', ids: 'hot', origin, method: 'GET', path: '/animals/{id}', headers: gz },
    // A new address each request (`{u}`): with a fixed one, a fast run at 10k asks for the same animals again within a
    // round (3,000 adoptable animals, over 10,000 requests) and measures mostly cache hits.
    { name: 'animal page, cold (any adoptable animal)', ids: 'pages', origin, method: 'GET', path: '/animals/{id}?ref={u}', headers: gz },
    { name: 'animal page, 304', origin, method: 'GET', path: animalUrl, headers: { ...gz, 'if-none-match': animalTag } },
  ];
  console.log(`Public site, ${size.toLocaleString()} animals, ${CONNECTIONS} connections (${TOOL}), ${ROUNDS}×${SECONDS}s, median`);
  const rows: Row[] = [];
  for (const t of lines) {
    const r = await measure(t);
    rows.push(r);
    print(r);
  }
  table.set(size, rows);
  if (asm3) {
    const [listWarm, listCold, pageWarm, pageCold] = [lines[0], lines[1], lines[6], lines[7]];
    if (!listWarm || !listCold || !pageWarm || !pageCold) throw new Error('missing line');
    await sideBySide(
      asm3,
      { listWarm, listCold, pageWarm, pageCold },
      {
        seconds: SECONDS,
        rounds: ROUNDS,
        meter,
        coldReset: () => admin.query('SELECT public_site_changed($1)', [org.id]).then(() => undefined),
      },
    );
  } else console.log('  (no --asm3 / ASM3_URL given: Ark alone)');
}

const small = table.get(SIZES[0] ?? 0) ?? [];
const large = table.get(SIZES[SIZES.length - 1] ?? 0) ?? [];
if (SIZES.length > 1) {
  console.log(
    `\nGrowth ${SIZES[0]?.toLocaleString()} → ${SIZES[SIZES.length - 1]?.toLocaleString()} animals ` +
      '(largest ÷ smallest: CPU µs per request, and req/s smallest ÷ largest; "flat": CPU per request within 2×, as the staff lines):',
  );
  for (const r of small) {
    const l = large.find((x) => x.name === r.name);
    if (!l) continue;
    const g = r.rps / l.rps;
    const c = r.cpu && l.cpu ? l.cpu / r.cpu : null;
    const verdict = c === null ? (g <= 2 ? 'flat' : 'NOT flat') : c <= 2 ? 'flat' : 'NOT flat';
    console.log(`  ${r.name.padEnd(46)} CPU ×${c === null ? 'n/a' : c.toFixed(2)}   req/s ÷${g.toFixed(2)}   ${verdict}`);
  }
}

await stopArk();
await stopStore();
