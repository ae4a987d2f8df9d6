import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Db } from './db.ts';
import { kx, sql, statement } from './kysely.ts';

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

test('a statement built once runs with each call its own values, constants kept', async () => {
  let builds = 0;
  const seen: { name: string; text: string; params: unknown[] }[] = [];
  const spy = {
    query: async () => [],
    prepared: async <R>(name: string, text: string, params: unknown[]) => {
      seen.push({ name, text, params });
      return [] as R[];
    },
  };
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
