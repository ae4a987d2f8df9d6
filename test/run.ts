/**
 * The test command (`npm test`): runs every *.test.ts under src/ and test/ with node's test
 * runner, first against the embedded PostgreSQL, then against an external PostgreSQL when one
 * is reachable (DATABASE_URL, or the local server at 127.0.0.1:5432, database `test`), each
 * time in a fresh database (browser tests, `*.browser.test.ts`, on the first store only). Pass file paths
 * to run only those. `ARK_TEST_STORES=postgresql` (or
 * `embedded`) runs one store only, for a quick check while developing; CI runs both.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { uncoveredRoutes } from './security-coverage.ts';
import { ownershipViolations, tracedStatements } from './ownership.ts';
import { compileForTests, compiledPath } from './compile.ts';

function findTests(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) findTests(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** A fresh database on the server at `adminUrl`, migrated; returns its URL and a dropper. */
async function freshDatabase(adminUrl: string) {
  const name = `ark_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // A test database need not survive a crash of its server: a commit does not wait for its WAL to reach the disk
  // (no test crashes the server it runs on; the outage tests start servers of their own).
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = new Db(url.toString(), 2);
  await migrate(db);
  await db.close();
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const failuresDir = (label: string) => path.resolve(`.tmp/failures-${process.pid}-${label}`);

/** The failed tests of each store, repeated last so the tail of a long log names them. */
function reportFailures(labels: string[]): void {
  for (const label of labels) {
    const dir = failuresDir(label);
    let texts: string[] = [];
    try {
      texts = readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    if (!texts.length) continue;
    const text = `\n# failed on the ${label} store:\n${texts.map((t) => t.trimEnd().replace(/^/gm, '#   ')).join('\n')}\n`;
    process.stdout.write(text);
    // CI prints its checks' logs after the tests: it names a file here to repeat this at the very end of its log.
    if (process.env.ARK_TEST_FAILURES_SUMMARY) appendFileSync(process.env.ARK_TEST_FAILURES_SUMMARY, text);
  }
}

async function runSuite(label: string, url: string, files: string[]): Promise<boolean> {
  console.log(`\n# Store: ${label}`);
  const coverage = path.resolve(`.tmp/security-coverage-${process.pid}-${label}`);
  const traces = path.resolve(`.tmp/sql-trace-${process.pid}-${label}`);
  const openapi = path.resolve(`.tmp/openapi-${process.pid}-${label}`);
  rmSync(openapi, { recursive: true, force: true });
  rmSync(failuresDir(label), { recursive: true, force: true });
  for (const dir of [coverage, traces]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  const env = {
    ...process.env,
    ARK_TEST_DATABASE_URL: url,
    ARK_TEST_STORE: label,
    ARK_SECURITY_COVERAGE: coverage,
    ARK_SQL_TRACE_DIR: traces,
    // The served OpenAPI descriptions, built by the first test process that checks an answer and read by the rest.
    ARK_TEST_OPENAPI_CACHE: openapi,
    // Each failed test, written by test/slowest.ts and repeated at the end of the whole run.
    ARK_TEST_FAILURES: failuresDir(label),
    // Entry points a test starts in a child process run from the same build (test/entry.ts).
    ...(compiled ? { ARK_TEST_COMPILED_ROOT: compiled.root } : {}),
    // The staff app is built once, here, for every browser test (test/browser.ts skips its own check).
    ...(files.some(isBrowser) ? { ARK_TEST_APP_BUILT: '1' } : {}),
  };
  const testArgs = ['--test', '--test-concurrency=2', '--test-timeout=1200000', ...reporters(compiled?.root)];
  // The transpiled twins run on plain Node (source maps on, so stack traces and the ownership trace name the .ts
  // file); the few that must read TypeScript as TypeScript run through tsx.
  const viaTsx = compiled ? files.filter(asTypeScript) : files;
  const viaJs = compiled
    ? grouped(
        compiled.root,
        files.filter((f) => !viaTsx.includes(f)),
        label,
      )
    : [];
  let ok = true;
  /** A failure that is not a failed test (a runner that exited non-zero, a check after the run), for the tail. */
  const note = (passed: boolean, what: string) => {
    if (passed) return;
    ok = false;
    mkdirSync(failuresDir(label), { recursive: true });
    writeFileSync(path.join(failuresDir(label), `run-${Date.now()}-${Math.random()}.txt`), `${what}\n`);
  };
  if (viaJs.length) {
    const run = spawnSync(process.execPath, ['--enable-source-maps', ...testArgs, ...viaJs], { stdio: 'inherit', env });
    note(run.status === 0, `the test runner exited with ${run.status ?? run.signal}`);
  }
  if (viaTsx.length) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', ...testArgs, ...viaTsx], { stdio: 'inherit', env });
    note(run.status === 0, `the test runner (through tsx) exited with ${run.status ?? run.signal}`);
  }
  // After a full run: every protected route must have an entry in the security suite.
  if (!args.length || process.env.ARK_SECURITY_COVERAGE_CHECK) note(securityCoverage(coverage), 'security coverage: see above');
  // After any run: no statement the run sent touched a table its module does not own.
  note(await tableOwnership(traces), "table ownership: a write to another module's table, see above");
  rmSync(coverage, { recursive: true, force: true });
  rmSync(traces, { recursive: true, force: true });
  rmSync(openapi, { recursive: true, force: true });
  return ok;
}

/**
 * Writes to another module's table fail the run. Raw reads of another module's table are listed: most are a
 * fragment the owner exports (a place's name, an organization's time zone) inside the reader's statement, which the
 * database sees as the reader's; they are reported so a new one is seen, not failed.
 */
async function tableOwnership(dir: string): Promise<boolean> {
  const statements = tracedStatements(dir);
  const found = await ownershipViolations(statements);
  const writes = found.filter((v) => v.kind === 'write');
  const reads = found.filter((v) => v.kind === 'read');
  console.log(
    `# table ownership: ${new Set(statements.map((s) => s.sql)).size} distinct statements checked: ` +
      `${writes.length} writes to another module's table, ${reads.length} raw reads of one`,
  );
  for (const v of writes) console.log(`#   ${v.file} writes ${v.table} (owned by ${v.owner}): ${v.sql}`);
  if (process.env.ARK_OWNERSHIP_READS) for (const v of reads) console.log(`#   ${v.file} reads ${v.table} (owned by ${v.owner}): ${v.sql}`);
  return writes.length === 0;
}

/** The usual reporter (spec on a terminal, TAP otherwise), and test/slowest.ts's list of the slowest files at the end. */
function reporters(root: string | undefined): string[] {
  const slowest = root ? compiledPath(root, 'test/slowest.ts') : path.resolve('test/slowest.ts');
  return [
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${slowest}`,
    '--test-reporter-destination=stdout',
  ];
}

function securityCoverage(dir: string): boolean {
  const report = uncoveredRoutes(dir);
  if ('error' in report) {
    console.log(`# security coverage: ${report.error}`);
    return false;
  }
  console.log(`# security coverage: ${report.covered} of ${report.protected} protected routes (${report.routes} /api routes)`);
  for (const r of report.missing) console.log(`#   not in the security suite: ${r}`);
  for (const r of report.stale) console.log(`#   suite entry for a route that is gone: ${r}`);
  return report.missing.length === 0 && report.stale.length === 0;
}

const args = process.argv.slice(2);
/**
 * Test files that read TypeScript sources as such (the boundary fixtures dependency-cruiser walks, the checked-in row
 * types compared with the database's): run through tsx.
 * Every other file runs from the ahead-of-time build (test/compile.ts), which spares each test process the loader
 * hooks' cost; `ARK_TEST_TSX=1` runs everything through tsx instead.
 */
const RUN_AS_TYPESCRIPT = ['test/module-ownership.test.ts', 'test/schema-types.test.ts'];
const asTypeScript = (f: string) => RUN_AS_TYPESCRIPT.some((t) => f.endsWith(t));
/**
 * The longest files start first, so the run does not end on one long file while the other slot is idle: a browser
 * file or one that starts and stops processes (restarts, outages, replicas, the command line) takes several times
 * what its length suggests; the rest in order of length.
 */
const SLOW_KINDS =
  /\.browser\.test\.ts$|test\/(restart|replicas|outage|shutdown|pooler|unavailable|timeouts|storage-full|redis-slow)\.test\.ts$|src\/cli\//;
/**
 * Files that wait on the change feed's horizon, which a long transaction in any database of the server holds back (a
 * whole organization seeded in one transaction by another file, 20 s under load, stalled every delivery test): they
 * start first, beside the longest browser file, which seeds nothing.
 */
const HORIZON_BOUND = /src\/modules\/integrations\/webhooks\.test\.ts$/;
function longestFirst(list: string[]): string[] {
  const weight = (f: string) =>
    HORIZON_BOUND.test(f) ? Number.MAX_SAFE_INTEGER : readFileSync(f, 'utf8').split('\n').length * (SLOW_KINDS.test(f) ? 4 : 1);
  const w = new Map(list.map((f) => [f, weight(f)]));
  return [...list].sort((a, b) => (w.get(b) ?? 0) - (w.get(a) ?? 0) || a.localeCompare(b));
}
const files = args.length ? args : longestFirst([...findTests('src'), ...findTests('test')]);
// Each compiled test file is a bundle (test/compile.ts) unless ARK_TEST_BUNDLE=0.
const bundled = process.env.ARK_TEST_BUNDLE === '0' ? [] : files.filter((f) => !asTypeScript(f));
const compiled = process.env.ARK_TEST_TSX ? null : await compileForTests(path.resolve(`.tmp/js-${process.pid}`), bundled);
if (compiled) process.on('exit', () => rmSync(compiled.root, { recursive: true, force: true }));
if (compiled)
  console.log(`# ${compiled.files} TypeScript files transpiled for the test run, ${bundled.length} test files bundled (test/compile.ts)`);
const isBrowser = (f: string) => f.endsWith('.browser.test.ts');

/**
 * A test process costs about 2 s of CPU before its first test (loading the bundle, building the app's routes), more
 * than many short files' tests take. So in a whole run the short files share processes: each group is one entry file
 * importing a few files' bundles, whose tests and hooks node:test runs one after another in that process (the files
 * share no state but the process: each builds its own app in its `before` hook and closes it in its `after`). The
 * slow kinds (browser files, files that start and stop processes, the command line) keep a process each, and a run
 * of named files is not grouped (`ARK_TEST_GROUP=1` groups it too). `ARK_TEST_GROUP=0` gives every file its own process.
 */
const GROUP_SIZE = 6;
/** Files that count what a process-wide singleton does (the public cache's hits, cleared by any app's listener). */
const OWN_PROCESS = /src\/modules\/publicsite\/cache\.test\.ts$/;
function grouped(root: string, list: string[], label: string): string[] {
  const single = (f: string) => compiledPath(root, f);
  const group = process.env.ARK_TEST_GROUP === '1' || (!args.length && process.env.ARK_TEST_GROUP !== '0');
  if (!group) return list.map(single);
  const own = (f: string) => SLOW_KINDS.test(f) || OWN_PROCESS.test(f);
  const alone = list.filter(own);
  const short = list.filter((f) => !own(f));
  const count = Math.ceil(short.length / GROUP_SIZE);
  // Greedy by length (the list comes longest first): each file to the group with the fewest lines so far.
  const groups = Array.from({ length: count }, () => ({ lines: 0, files: [] as string[] }));
  for (const f of short) {
    const g = groups.reduce((a, b) => (b.lines < a.lines ? b : a));
    g.files.push(f);
    g.lines += readFileSync(f, 'utf8').split('\n').length;
  }
  const dir = path.join(root, 'groups');
  mkdirSync(dir, { recursive: true });
  const entries = groups.map((g, i) => {
    const entry = path.join(dir, `${label}-${String(i + 1).padStart(2, '0')}.test.js`);
    writeFileSync(entry, g.files.map((f) => `import ${JSON.stringify(single(f))};\n`).join(''));
    return { entry, lines: g.lines };
  });
  // Longest first, weighing a slow kind's lines by 4 as longestFirst does.
  const all = [...alone.map((f) => ({ entry: single(f), lines: readFileSync(f, 'utf8').split('\n').length * 4 })), ...entries];
  return all.sort((a, b) => b.lines - a.lines).map((e) => e.entry);
}
let ok = true;

// Browser tests read the built staff app: build it when its sources are newer than the build, once for the run.
if (files.some(isBrowser)) {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'web/scripts/build.ts', '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

const stores = (process.env.ARK_TEST_STORES ?? 'embedded,postgresql').split(',');
// Browser tests drive the staff app through Ark's HTTP API; what differs between the stores is covered by
// the HTTP tests, which run on both. So a browser test runs on the first store only (the embedded one, when
// both run), which keeps CI's run short.
let browserRan = false;

if (stores.includes('embedded')) {
  const embeddedDir = path.resolve(`.tmp/test-pg-${process.pid}`);
  rmSync(embeddedDir, { recursive: true, force: true });
  const embedded = await startEmbedded(embeddedDir);
  try {
    const fresh = await freshDatabase(embedded.url);
    ok = (await runSuite('embedded', fresh.url, files)) && ok;
    browserRan = files.some(isBrowser);
    await fresh.drop();
  } finally {
    await embedded.stop();
    rmSync(embeddedDir, { recursive: true, force: true });
  }
}

const external = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
if (!stores.includes('postgresql')) {
  // one store asked for
} else if (await reachable(external)) {
  const rest = browserRan ? files.filter((f) => !isBrowser(f)) : files;
  if (rest.length < files.length) console.log(`\n# ${files.length - rest.length} browser test files ran on the embedded store only`);
  if (rest.length) {
    const fresh = await freshDatabase(external);
    try {
      ok = (await runSuite('postgresql', fresh.url, rest)) && ok;
    } finally {
      await fresh.drop();
    }
  }
} else {
  console.log(`\n# Store: postgresql not reachable at ${external.replace(/:[^:@/]*@/, ':***@')}; embedded store only`);
}
reportFailures(['embedded', 'postgresql']);
process.exit(ok ? 0 : 1);
