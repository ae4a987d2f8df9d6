import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Db } from './db.ts';
import { compiler, kx, sql, statement } from './kysely.ts';

const url = process.env.ARK_TEST_DATABASE_URL;
if (!url) throw new Error('ARK_TEST_DATABASE_URL is not set: run the tests with `npm test`');
const db = new Db(url, 2);
after(() => db.close());

test('a built query runs inside ctx.db.tx on the same connection and transaction', async () => {
  await db.tx(async (q) => {
    const [raw] = await q.query<{ pid: number; tx: string }>('SELECT pg_backend_pid() AS pid, txid_current()::text AS tx');
    const built = (await sql<{ pid: number; tx: string }>`SELECT pg_backend_pid() AS pid, txid_current()::text AS tx`.execute(kx(q)))
      .rows[0];
    assert.deepEqual(built, raw);
  });
});

test('a rolled-back transaction takes the built writes with it', async () => {
  const name = `kx probe ${Date.now()}`;
  await assert.rejects(
    db.tx(async (q) => {
      await sql`CREATE TEMP TABLE kx_probe (name text) ON COMMIT DROP`.execute(kx(q));
      await sql`INSERT INTO kx_probe (name) VALUES (${name})`.execute(kx(q));
      const seen = await sql<{ name: string }>`SELECT name FROM kx_probe`.execute(kx(q));
      assert.equal(seen.rows[0]?.name, name);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  const left = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_class WHERE relname = 'kx_probe'");
  assert.equal(left[0]?.n, 0);
});

test('the builder binds values as parameters and refuses its own transactions', async () => {
  const c = kx(db).selectFrom('tasks').select(['id', 'title']).where('organization_id', '=', "o'1").where('id', '=', 't').compile();
  assert.match(c.sql, /"organization_id" = \$1 and "id" = \$2/);
  assert.deepEqual(c.parameters, ["o'1", 't']);
  await assert.rejects(
    kx(db)
      .transaction()
      .execute(async () => undefined),
    /ctx\.db\.tx/,
  );
});

/** A Queryable that runs nothing and records each prepared statement it is handed. */
function recording() {
  const seen: { name: string; text: string; params: unknown[] }[] = [];
  const spy = {
    query: async () => [],
    prepared: async <R>(name: string, text: string, params: unknown[]) => {
      seen.push({ name, text, params });
      return [] as R[];
    },
  };
  return { seen, spy };
}

test('a statement built once runs with each call its own values, constants kept', async () => {
  let builds = 0;
  const { seen, spy } = recording();
  const run = statement('probe', (v: { a: string; b: number | null }) => {
    builds += 1;
    return sql`SELECT ${v.a}::text AS a, ${'fixed'}::text AS c, ${v.b}::int AS b, ${v.a}::text AS again`;
  });
  await run(spy, { a: 'x', b: 1 });
  await run(spy, { a: 'y', b: null });
  assert.equal(builds, 1);
  assert.deepEqual(
    seen.map((s) => s.params),
    [
      ['x', 'fixed', 1, 'x'],
      ['y', 'fixed', null, 'y'],
    ],
  );
  assert.equal(seen[0]?.name, seen[1]?.name);
  assert.match(seen[0]?.text ?? '', /\$1::text AS a, \$2::text AS c, \$3::int AS b, \$4::text AS again/);
});

test("a first page's LIMIT and OFFSET are written into the text; a deeper page's, and a size past the bound, are bound", () => {
  const page = (limit: number, offset: number) =>
    sql`SELECT id FROM tasks WHERE organization_id = ${'o1'} ORDER BY id LIMIT ${limit} OFFSET ${offset}`.compile(compiler);
  const first = page(25, 0);
  assert.match(first.sql, /LIMIT 25 OFFSET 0$/);
  assert.deepEqual(first.parameters, ['o1']);
  const third = page(25, 50);
  assert.match(third.sql, /LIMIT 25 OFFSET \$2$/);
  assert.deepEqual(third.parameters, ['o1', 50]);
  assert.match(page(5000, 0).sql, /LIMIT \$2 OFFSET 0$/);
  // Only a number right after LIMIT or OFFSET: the same value elsewhere stays bound.
  const elsewhere = sql`SELECT ${25}::int AS n LIMIT ${25}`.compile(compiler);
  assert.equal(elsewhere.sql, 'SELECT $1::int AS n LIMIT 25');
  assert.deepEqual(elsewhere.parameters, [25]);
  const built = (offset: number) =>
    compiler.selectFrom('tasks').select('id').where('organization_id', '=', 'o1').limit(10).offset(offset).compile();
  assert.match(built(0).sql, /limit 10 offset 0$/);
  assert.match(built(20).sql, /limit 10 offset \$2$/);
  assert.deepEqual(built(20).parameters, ['o1', 20]);
});

test('a statement with a page is built once per first-page size, and once with its page bound for the rest', async () => {
  let builds = 0;
  const { seen, spy } = recording();
  const run = statement('probe_page', (v: { orgId: string; limit: number; offset: number }) => {
    builds += 1;
    return sql`SELECT id FROM tasks WHERE organization_id = ${v.orgId} ORDER BY id LIMIT ${v.limit} OFFSET ${v.offset}`;
  });
  await run(spy, { orgId: 'a', limit: 25, offset: 0 });
  await run(spy, { orgId: 'b', limit: 25, offset: 0 });
  await run(spy, { orgId: 'a', limit: 50, offset: 0 });
  await run(spy, { orgId: 'a', limit: 25, offset: 25 });
  await run(spy, { orgId: 'c', limit: 50, offset: 100 });
  // A size past what is written in shares the bound statement.
  await run(spy, { orgId: 'a', limit: 5000, offset: 0 });
  assert.equal(builds, 3);
  assert.deepEqual(
    seen.map((s) => [s.text.replace(/^.* LIMIT/, 'LIMIT'), s.params]),
    [
      ['LIMIT 25 OFFSET 0', ['a']],
      ['LIMIT 25 OFFSET 0', ['b']],
      ['LIMIT 50 OFFSET 0', ['a']],
      ['LIMIT $2 OFFSET $3', ['a', 25, 25]],
      ['LIMIT $2 OFFSET $3', ['c', 50, 100]],
      ['LIMIT $2 OFFSET $3', ['a', 5000, 0]],
    ],
  );
  assert.equal(new Set(seen.map((s) => s.name)).size, 3);
});

test('a first page run as a named prepared statement is planned once and then reuses its plan', async () => {
  const client = await db.pool.connect();
  try {
    await client.query(`CREATE TEMP TABLE page_probe AS SELECT g AS id, g % 10 AS k FROM generate_series(1, 20000) g;
      CREATE INDEX ON page_probe (k, id); ANALYZE page_probe`);
    const q = {
      query: async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[],
      prepared: async <R>(name: string, text: string, params: unknown[]) =>
        (await client.query({ name, text, values: params })).rows as R[],
    };
    const page = statement(
      'probe_plans',
      (v: { k: number; limit: number; offset: number }) =>
        sql<{ id: number }>`SELECT id FROM page_probe WHERE k = ${v.k} ORDER BY id LIMIT ${v.limit} OFFSET ${v.offset}`,
    );
    for (let i = 0; i < 8; i += 1) {
      const first = await page(q, { k: i % 10, limit: 25, offset: 0 });
      assert.deepEqual(first[0], { id: i % 10 || 10 });
      const deeper = await page(q, { k: i % 10, limit: 25, offset: 50 });
      assert.equal(deeper.length, 25);
    }
    const plans = await q.query<{ text: string; generic: number; custom: number }>(
      `SELECT statement AS text, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
        WHERE statement LIKE '%page_probe%' ORDER BY statement`,
    );
    // The first page: five plans made for its values, then the plan made once (the LIMIT is in its text).
    const firstPlans = plans.find((p) => p.text.includes('LIMIT 25 OFFSET 0'));
    assert.deepEqual({ generic: firstPlans?.generic, custom: firstPlans?.custom }, { generic: 3, custom: 5 });
    // A deeper page (LIMIT and OFFSET bound): planned for its values every time.
    const deeperPlans = plans.find((p) => p.text.includes('OFFSET $'));
    assert.deepEqual({ generic: deeperPlans?.generic, custom: deeperPlans?.custom }, { generic: 0, custom: 8 });
  } finally {
    client.release(true);
  }
});
