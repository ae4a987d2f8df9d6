/**
 * `npm run bench`: seeds 100,000 animals in one organization (and a few other organizations),
 * then measures requests per second and p50/p99 latency on loopback for the hot Family A paths,
 * all with real keys through the whole kernel, against two ceilings measured in the same run.
 * Uses DATABASE_URL when set, else a throwaway embedded PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';

const ANIMALS = Number(process.env.BENCH_ANIMALS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;

const dataDir = path.resolve(`.tmp/bench-pg-${process.pid}`);
let url = process.env.DATABASE_URL;
let stopEmbedded = async () => undefined as void;
if (!url) {
  rmSync(dataDir, { recursive: true, force: true });
  const h = await startEmbedded(dataDir);
  url = h.url;
  stopEmbedded = async () => {
    await h.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
const db = new Db(url, 4);
await migrate(db);

console.log(`Seeding ${ANIMALS.toLocaleString()} animals in one organization, plus 3 other organizations…`);
const seedStart = Date.now();
const slug = `bench-${base62(6).toLowerCase()}`;
const org = await createOrganization(db, { slug, name: 'Bench Rescue' });
for (let i = 0; i < 3; i++) {
  const other = await createOrganization(db, { slug: `${slug}-o${i}`, name: `Other ${i}` });
  await seedAnimals(other.id, 5_000);
}
await seedAnimals(org.id, ANIMALS);
await db.query('VACUUM ANALYZE animals');
const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
const ids = (await db.query<{ id: string }>('SELECT id FROM animals WHERE organization_id = $1 ORDER BY random() LIMIT 5000', [org.id])).map((r) => r.id);
console.log(`Seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);

async function seedAnimals(orgId: string, n: number) {
  // One statement: statuses and species spread over the rows as a shelter's would be. The
  // per-row counter trigger is paused for the bulk load and the counts rebuilt after it.
  await db.query('ALTER TABLE animals DISABLE TRIGGER animals_counts');
  await db.query(
    `INSERT INTO animals (organization_id, id, name, public_name, species, breed, status_id, intake_date, sex, weight, microchip_number, is_public)
     SELECT $1, 'ani_' || substr(md5(random()::text || g::text), 1, 20), 'Animal ' || g, 'Animal ' || g,
            (ARRAY['dog','cat','rabbit','dog','cat','bird','dog'])[1 + g % 7], NULL,
            (SELECT id FROM animal_statuses s WHERE s.organization_id = $1 ORDER BY sort_order OFFSET (g % 9) LIMIT 1),
            DATE '2024-01-01' + (g % 700), (ARRAY['male','female','unknown'])[1 + g % 3], 5 + (g % 60),
            '985' || lpad(g::text, 12, '0'), g % 3 = 0
       FROM generate_series(1, $2) g`,
    [orgId, n],
  );
  await db.query('ALTER TABLE animals ENABLE TRIGGER animals_counts');
  await db.query('SELECT animal_tallies_rebuild($1)', [orgId]);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], {
  env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_ORG_ID: org.id },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [appPort, barePort] = await new Promise<[number, number]>((resolve, reject) => {
  server.stdout.on('data', (chunk: Buffer) => {
    const m = /ready (\d+) (\d+)/.exec(chunk.toString());
    if (m) resolve([Number(m[1]), Number(m[2])]);
  });
  server.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
});

const host = `${slug}.localhost`;
const auth = { host, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
let n = 0;
const nextId = () => ids[n++ % ids.length];

interface Figure { name: string; rps: number; p50: number; p99: number; errors: number }
async function measure(name: string, opts: autocannon.Options): Promise<Figure> {
  await autocannon({ ...opts, duration: 2, connections: CONNECTIONS }); // warm-up
  const r = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  const bad = r.non2xx + r.errors + r.timeouts;
  const fig = { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad };
  console.log(`  ${name.padEnd(44)} ${fig.rps.toFixed(0).padStart(7)} req/s   p50 ${String(fig.p50).padStart(4)} ms   p99 ${String(fig.p99).padStart(4)} ms${bad ? `   (${bad} non-2xx/errors!)` : ''}`);
  return fig;
}

console.log(`Measuring ${DURATION} s each, ${CONNECTIONS} connections, loopback:`);
const bareConst = await measure('ceiling: bare constant JSON (node:http)', { url: `http://127.0.0.1:${barePort}/const` });
const bareById = await measure('ceiling: bare row by id (pg prepared, no kernel)', {
  url: `http://127.0.0.1:${barePort}`,
  requests: [{ setupRequest: (req) => ({ ...req, path: `/animal/${nextId()}` }) }],
});
const getOne = await measure('GET /api/v1/animals/{id}', {
  url: `http://127.0.0.1:${appPort}`, headers: auth,
  requests: [{ setupRequest: (req) => ({ ...req, path: `/api/v1/animals/${nextId()}` }) }],
});
const list = await measure('GET /api/v1/animals?species&status&careState', {
  url: `http://127.0.0.1:${appPort}/api/v1/animals?species=dog&status=Available&careState=in_care&perPage=25`, headers: auth,
});
const patch = await measure('PATCH /api/v1/animals/{id}', {
  url: `http://127.0.0.1:${appPort}`, headers: auth, method: 'PATCH',
  requests: [{ method: 'PATCH', setupRequest: (req) => ({ ...req, path: `/api/v1/animals/${nextId()}`, body: JSON.stringify({ weight: 10 + (n % 50), isPublic: n % 2 === 0 }) }) }],
});
const post = await measure('POST /api/v1/animals', {
  url: `http://127.0.0.1:${appPort}/api/v1/animals`, headers: auth, method: 'POST',
  body: JSON.stringify({ name: 'Bench', species: 'dog', status: 'Intake', intakeDate: '2026-11-01', weight: 30 }),
});

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;
console.log('\nRatios:');
for (const f of [getOne, list, patch, post]) {
  console.log(`  ${f.name.padEnd(44)} ${pct(f.rps, bareById.rps).padStart(5)} of bare by-id   ${pct(f.rps, bareConst.rps).padStart(5)} of bare constant`);
}
console.log(`  bare by-id is ${pct(bareById.rps, bareConst.rps)} of bare constant`);
console.log('\nTargets:');
const t1 = getOne.rps / bareById.rps;
const t2 = list.rps / getOne.rps;
console.log(`  GET one animal ≥ 80% of bare by-id: ${(t1 * 100).toFixed(0)}% ${t1 >= 0.8 ? 'met' : 'NOT met'}`);
console.log(`  filtered list ≥ 50% of GET one:     ${(t2 * 100).toFixed(0)}% ${t2 >= 0.5 ? 'met' : 'NOT met'}`);

const mem = process.memoryUsage();
console.log(`\nBench driver RSS ${(mem.rss / 1048576).toFixed(0)} MiB`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await db.close();
await stopEmbedded();
