// A route file reads the request, calls a service or a repository, and answers (docs/architecture.md, "Where a URL
// lives"): it builds no SQL statement, opens no transaction and writes no audit row. This reads every route file of
// every module and fails on the first that does, naming the file and the line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const MODULES = path.resolve(process.cwd(), 'src/modules');

/** Every route file: `routes/*.ts` in each module folder, and the page files named `*.routes.ts`. */
function routeFiles(): string[] {
  const out: string[] = [];
  for (const m of readdirSync(MODULES)) {
    const dir = path.join(MODULES, m);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir)) if (f.endsWith('.routes.ts')) out.push(path.join(dir, f));
    const routes = path.join(dir, 'routes');
    try {
      for (const f of readdirSync(routes)) if (f.endsWith('.ts')) out.push(path.join(routes, f));
    } catch {
      // a module without a routes folder
    }
  }
  return out;
}

/** What a thin route never does: a statement (Kysely's `kx(` or `sql` tag, a raw `.query(`), a transaction, an audit row. */
const FORBIDDEN: [RegExp, string][] = [
  [/\bkx\(/, 'builds a statement with kx('],
  [/\bsql(?:<[^>]*>)?`/, 'writes SQL with the sql tag'],
  [/\.(?:query|prepared)\s*(?:<[^()]*>)?\s*\(\s*['"`]/, 'sends SQL text'],
  [/\.tx\(/, 'opens a transaction'],
  [/\b(?:audit|auditChanges|recordChange)\(/, 'writes an audit row or a change'],
];

test('route files are thin: no SQL, no transaction, no audit row in any of them', () => {
  const files = routeFiles();
  assert.ok(files.length > 100, `expected the route files of every module, found ${files.length}`);
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const [re, what] of FORBIDDEN)
        if (re.test(line)) found.push(`${path.relative(process.cwd(), file)}:${i + 1} ${what}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the thin-route check catches each thing it forbids', () => {
  const samples = [
    'const rows = await kx(req.db).selectFrom("people").execute();',
    'await sql`DELETE FROM tasks`.execute(k);',
    "await client.query('SELECT 1');",
    'await ctx.db.tx(async (q) => write(q));',
    "await audit(q, orgId, actor, 'update', 'person', id);",
  ];
  for (const s of samples)
    assert.ok(
      FORBIDDEN.some(([re]) => re.test(s)),
      s,
    );
  assert.ok(!FORBIDDEN.some(([re]) => re.test('return pageB(await listActivity(req.db, orgId, areas, f), f.limit, f.offset);')));
});
