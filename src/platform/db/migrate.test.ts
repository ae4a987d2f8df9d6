/**
 * Migrations are append-only: the runner keeps each applied file's checksum and refuses to start when an applied
 * file changed, naming it; a database migrated before checksums were kept gets them on its first run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Db } from './db.ts';
import { ChangedMigrationError, migrate, migrationChecksum } from './migrate.ts';

const url = process.env.ARK_TEST_DATABASE_URL ?? '';

/** A Db whose tables land in a schema of its own, and a folder of migration files. */
async function scratch(t: { after(fn: () => Promise<void>): void }) {
  const schema = `mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Db(url, 1);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const db = new Db(u.toString(), 2);
  const dir = await mkdtemp(path.join(tmpdir(), 'ark-migrations-'));
  t.after(async () => {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { db, dir, file: (name: string, sql: string) => writeFile(path.join(dir, name), sql) };
}

test("the repository's own migrations match the checksums the test database recorded", async () => {
  const db = new Db(url, 1);
  try {
    assert.deepEqual(await migrate(db), []);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations WHERE checksum IS NULL');
    assert.equal(rows[0]?.n, 0);
  } finally {
    await db.close();
  }
});

test('a changed applied migration stops the runner with a message naming the file; a new file alone still applies', async (t) => {
  const { db, dir, file } = await scratch(t);
  await file('0001_pets.sql', 'CREATE TABLE pets (id text PRIMARY KEY);');
  await file('0002_pets_name.sql', 'ALTER TABLE pets ADD COLUMN name text;');
  assert.deepEqual(await migrate(db, dir), ['0001_pets.sql', '0002_pets_name.sql']);
  const stored = await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations ORDER BY name');
  assert.deepEqual(stored, [
    { name: '0001_pets.sql', checksum: migrationChecksum('CREATE TABLE pets (id text PRIMARY KEY);') },
    { name: '0002_pets_name.sql', checksum: migrationChecksum('ALTER TABLE pets ADD COLUMN name text;') },
  ]);
  assert.deepEqual(await migrate(db, dir), [], 'nothing to apply twice');

  await file('0003_pets_born.sql', 'ALTER TABLE pets ADD COLUMN born date;');
  // Line endings alone are no change (a checkout on Windows).
  await file('0001_pets.sql', 'CREATE TABLE pets (id text PRIMARY KEY);'.replace(/$/, '\r\n').trimEnd());
  assert.deepEqual(await migrate(db, dir), ['0003_pets_born.sql']);

  // The edit that landed six times: a required column added to an applied migration.
  await file('0002_pets_name.sql', 'ALTER TABLE pets ADD COLUMN name text NOT NULL;');
  await file('0004_pets_size.sql', 'ALTER TABLE pets ADD COLUMN size text;');
  const err = await migrate(db, dir).then(
    () => assert.fail('the runner started over a changed migration'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ChangedMigrationError);
  assert.deepEqual(err.files, ['0002_pets_name.sql']);
  assert.match(err.message, /migration 0002_pets_name\.sql changed after it was applied/);
  assert.match(err.message, /append-only/);
  const after = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  assert.equal(after.length, 3, 'no later migration ran past the refusal');
});

test('a database migrated before checksums were kept gets them recorded on its first run, then is held to them', async (t) => {
  const { db, dir, file } = await scratch(t);
  await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  await db.query('CREATE TABLE pets (id text PRIMARY KEY)');
  await db.query(`INSERT INTO schema_migrations (name) VALUES ('0001_pets.sql')`);
  await file('0001_pets.sql', 'CREATE TABLE pets (id text PRIMARY KEY);');
  assert.deepEqual(await migrate(db, dir), []);
  const rows = await db.query<{ checksum: string }>('SELECT checksum FROM schema_migrations');
  assert.equal(rows[0]?.checksum, migrationChecksum('CREATE TABLE pets (id text PRIMARY KEY);'));
  await file('0001_pets.sql', 'CREATE TABLE pets (id text PRIMARY KEY, name text);');
  await assert.rejects(migrate(db, dir), /migration 0001_pets\.sql changed after it was applied/);
});
