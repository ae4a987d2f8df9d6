/**
 * Statements per request: the bench's lines sent to Ark built in this process (the app `npm start`
 * builds, over the same database), with every statement a pg client sends counted — BEGIN and COMMIT
 * included, a multi-statement text counted once (one round trip). Exact, and untouched by the noise
 * of a shared machine, unlike req/s.
 *
 * `npm run bench -- --only=writes` prints it after the load lines; alone:
 * `node --import tsx bench/statements.ts` (DATABASE_URL, else a throwaway embedded PostgreSQL; a new
 * organization with BENCH_ANIMALS animals, default 2,000). `--list` prints each line's statements.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import { fillBody, type Target } from './load.ts';

interface Counted {
  on: boolean;
  texts: string[];
}
const counted: Counted = { on: false, texts: [] };
let patched = false;
/** Counts what every pg client of this process sends while `counted.on`. */
function patchPg(): void {
  if (patched) return;
  patched = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (counted.on) {
      const a = args[0];
      const text = typeof a === 'string' ? a : ((a as { text?: string; name?: string })?.text ?? '');
      counted.texts.push(text.replace(/\s+/g, ' ').trim());
    }
    return original.apply(this, args);
  };
}

export interface StatementCount {
  name: string;
  perRequest: number;
  /** The statements of one request (the last one sent), abbreviated. */
  sample: string[];
  bad: number;
}

/**
 * Sends each target `n` times (after two unmeasured requests that fill the caches) to an in-process
 * Ark over `url`, and returns the statements per request. `ids(kind)` gives the ids `{id}` takes.
 */
export async function countStatements(url: string, targets: Target[], ids: (kind: string) => string[], n = 20): Promise<StatementCount[]> {
  patchPg();
  const db = new Db(url, 4);
  const { app } = await buildApp({ config: { ...loadConfig({}), rateLimitPerMinute: 1e9, databaseUrl: url }, db, lazySchemas: true });
  const out: StatementCount[] = [];
  try {
    for (const t of targets) {
      const list = ids(t.ids ?? 'animals');
      let bad = 0;
      let total = 0;
      let sample: string[] = [];
      for (let i = 0; i < n + 2; i++) {
        const id = list[i % Math.max(list.length, 1)] ?? 'none';
        const body = fillBody(t.body, i, id, `stmt${process.pid}x${Date.now().toString(36)}`);
        counted.texts = [];
        counted.on = i >= 2;
        const res = await app.inject({
          method: t.method,
          url: t.path.replace('{id}', id),
          headers: t.headers,
          ...(body ? { payload: body } : {}),
        });
        counted.on = false;
        if (res.statusCode >= 300) bad++;
        if (i >= 2) {
          total += counted.texts.length;
          sample = counted.texts;
        }
      }
      out.push({ name: t.name, perRequest: total / n, sample: sample.map((s) => (s.length > 110 ? `${s.slice(0, 107)}…` : s)), bad });
    }
  } finally {
    await app.close();
    await db.close();
  }
  return out;
}

export function printStatementCounts(counts: StatementCount[], list = false): void {
  console.log('\nStatements per request (every statement a pg client sent, BEGIN/COMMIT included; in-process Ark, same database):');
  for (const c of counts) {
    console.log(`  ${c.name.padEnd(44)} ${c.perRequest.toFixed(1).padStart(5)}${c.bad ? `   (${c.bad} non-2xx!)` : ''}`);
    if (list) for (const s of c.sample) console.log(`      ${s}`);
  }
}

// Alone: a small organization of its own, and the bench's write lines with GET one for reference.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { grow, HISTORY_END } = await import('./seed.ts');
  const dataDir = path.resolve(`.tmp/bench-stmt-pg-${process.pid}`);
  let url = process.env.DATABASE_URL;
  let stop = async () => undefined as void;
  if (!url) {
    rmSync(dataDir, { recursive: true, force: true });
    const h = await startEmbedded(dataDir);
    url = h.url;
    stop = async () => {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const db = new Db(url, 2);
  await migrate(db);
  const slug = `stmt-${base62(6).toLowerCase()}`;
  const org = await createOrganization(db, { slug, name: 'Statement Count Rescue' });
  const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await grow(admin, org.id, { animals: Number(process.env.BENCH_ANIMALS ?? 2000), people: 300, donations: 0, messages: 0 });
  const pick = async (table: string) =>
    (
      await admin.query<{ id: string }>(
        `SELECT id FROM ${table} WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY random() LIMIT 100`,
        [org.id],
      )
    ).rows.map((r) => r.id);
  const idLists: Record<string, string[]> = { animals: await pick('animals'), people: await pick('people') };
  await admin.end();
  await db.close();
  const { writeTargets } = await import('./lines.ts');
  const headers = { host: `${slug}.localhost`, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const counts = await countStatements(url, writeTargets('', headers, HISTORY_END), (k) => idLists[k] ?? []);
  printStatementCounts(counts, process.argv.includes('--list'));
  await stop();
}
