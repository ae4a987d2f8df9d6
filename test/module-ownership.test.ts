// Modules own their tables, and the layering holds. The rules and the ownership map are in test/ownership.ts and
// .dependency-cruiser.cjs; the check itself runs over every statement a test run sends (test/run.ts) and over the
// source on `npm run lint`. This file proves both catch each way a module can break them, on the fixture tree in
// test/fixtures/boundaries (shaped like src/), and that the ownership map names every table the migrations create.
//
// The kinds proven, each caught:
//   1. an upper-case direct write (INSERT INTO people ...)       7. a schema-qualified name (UPDATE public.animals)
//   2. an UPDATE of another module's table                       8. a comma join (FROM tasks t, people p): a raw read
//   3. a DELETE from one                                         9. a dynamic import of another module's internal file
//   4. INSERT ... SELECT into one                               10. a file in a module's subfolder (its write and its import)
//   5. lower-case SQL (update people set ...)                   11. a file under platform/ (its write and its import)
//   6. the table's name held in a variable
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Db } from '../src/platform/db/db.ts';
import { traceStatements, type TracedStatement } from '../src/platform/db/trace.ts';
import { createdRelations, owner, ownershipViolations } from './ownership.ts';
import { trespasses, allowed } from './fixtures/boundaries/src/modules/tasks/trespass.ts';
import { renameLazily } from './fixtures/boundaries/src/modules/tasks/lazy.ts';
import { removePerson } from './fixtures/boundaries/src/modules/tasks/jobs/cleanup.ts';
import { touchSession } from './fixtures/boundaries/src/platform/sessions.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'test/fixtures/boundaries');

test("the ownership map names every table the migrations create (read by PostgreSQL's own parser)", async () => {
  const { tables } = await createdRelations(join(ROOT, 'migrations'));
  assert.ok(tables.size > 100);
  const missing = [...tables].filter((t) => !owner(t));
  assert.deepEqual(missing, [], 'add these tables to OWNERS in test/ownership.ts');
});

/** Runs `fn`'s statements (each rolled back) and returns what the trace recorded of them. */
async function traced(fn: (q: Db) => Promise<void>): Promise<TracedStatement[]> {
  const db = new Db(process.env.ARK_TEST_DATABASE_URL ?? '', 1);
  const seen: TracedStatement[] = [];
  const before = traceStatements((s) => seen.push(s));
  try {
    await fn(db);
  } finally {
    traceStatements(before);
    await db.close();
  }
  return seen.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK)/.test(s.sql));
}
const rolledBack = async (db: Db, run: (q: Db) => Promise<unknown>) => {
  await db
    .tx(async (q) => {
      await run(q as Db).catch(() => undefined);
      throw new Error('roll back');
    })
    .catch(() => undefined);
};

test("table ownership: every kind of write or raw read of another module's table is caught, whatever its spelling", async () => {
  const statements = await traced(async (db) => {
    for (const fn of Object.values(trespasses)) await rolledBack(db, (q) => fn(q, 'org_fixture'));
    await rolledBack(db, (q) => removePerson(q, 'org_fixture'));
    await rolledBack(db, (q) => touchSession(q, 'org_fixture'));
  });
  const found = (await ownershipViolations(statements)).map((v) => `${v.file}: ${v.kind} ${v.table}`);
  const trespass = 'modules/tasks/trespass.ts';
  assert.deepEqual(found.sort(), [
    'modules/tasks/jobs/cleanup.ts: write people', // 10. a subfolder
    `${trespass}: read people`, // 8. a comma join
    `${trespass}: write animal_weights`, // 4. INSERT ... SELECT
    `${trespass}: write animals`, // 2. UPDATE, 7. schema-qualified (one entry per file and table)
    `${trespass}: write comm_templates`, // 6. a name in a variable
    `${trespass}: write donations`, // 3. DELETE
    `${trespass}: write people`, // 1. upper case, 5. lower case
    'platform/sessions.ts: write member_sessions', // 11. platform/
  ]);
  // Each kind on its own, so one entry standing for two kinds hides neither.
  for (const [kind, fn] of Object.entries(trespasses)) {
    const one = await traced((db) => rolledBack(db, (q) => fn(q, 'org_fixture')));
    assert.equal((await ownershipViolations(one)).length, 1, `${kind} is caught`);
  }
});

test("table ownership: a module's own table, and another's through the owner's public.ts, are no violation", async () => {
  const statements = await traced(async (db) => {
    for (const fn of Object.values(allowed)) await rolledBack(db, (q) => fn(q, 'org_fixture'));
    await rolledBack(db, (q) => renameLazily(q, 'org_fixture'));
  });
  assert.ok(
    statements.some((s) => s.file === 'modules/people/repository.ts'),
    'the owner sent its own statement',
  );
  assert.deepEqual(await ownershipViolations(statements), []);
});

test("table ownership: a part another module contributed through a hook (a CTE named for it) is that module's", async () => {
  const sql = `WITH w AS (UPDATE animals SET name = name WHERE organization_id = $1 RETURNING *),
    registry__0 AS (DELETE FROM registry_chips WHERE organization_id = $1),
    x1 AS (INSERT INTO animal_stays (organization_id) SELECT organization_id FROM w)
    SELECT 1`;
  const found = await ownershipViolations([{ module: 'animals', file: 'modules/animals/repository.ts', sql }]);
  assert.deepEqual(
    found.map((v) => `${v.module} ${v.kind} ${v.table}`),
    ['animals write animal_stays'],
  );
});

test("layering: dependency-cruiser with the repository's rules catches a dynamic import, a subfolder's import and a kernel import", () => {
  const res = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src',
      '--config',
      join(ROOT, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd: FIXTURES, encoding: 'utf8' },
  );
  const out = JSON.parse(res.stdout) as { summary: { violations: { from: string; to: string; rule: { name: string } }[] } };
  const found = out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  assert.deepEqual(found, [
    'kernel-imports-no-module: src/platform/sessions.ts -> src/modules/people/public.ts', // 11.
    'module-through-public: src/modules/tasks/jobs/cleanup.ts -> src/modules/people/repository.ts', // 10.
    'module-through-public: src/modules/tasks/lazy.ts -> src/modules/people/repository.ts', // 9. a dynamic import
  ]);
});
