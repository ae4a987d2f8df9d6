import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';
import type { Db } from './db.ts';
import { kx, onClient } from './kysely.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

/** The checksum stored for a migration file: SHA-256 of its text with line endings made Unix ones. */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

/** An applied migration's file no longer reads as it did when it ran: the database refuses to start. */
export class ChangedMigrationError extends Error {
  constructor(readonly files: string[]) {
    super(
      `migration${files.length > 1 ? 's' : ''} ${files.join(', ')} changed after ${files.length > 1 ? 'they were' : 'it was'} applied: ` +
        'migrations are append-only, so restore the file as it was and put the change in a new migration',
    );
    this.name = 'ChangedMigrationError';
  }
}

/**
 * Applies every migrations/*.sql not yet applied, in file-name order, each in its own
 * transaction. An advisory lock keeps two processes starting at once from racing: a session lock, held across the
 * migrations' transactions, so it is taken on a connection of its own to the direct address (never through a
 * transaction pooler, which could run the unlock on another server connection).
 *
 * Migrations are append-only: each applied file's checksum is stored in `schema_migrations`, and the
 * runner refuses to start (ChangedMigrationError, naming the files) when an applied file now reads
 * differently. A database migrated before checksums were kept gets them recorded on its first run.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const texts = new Map<string, string>();
  for (const file of files) texts.set(file, await readFile(path.join(dir, file), 'utf8'));
  const applied: string[] = [];
  const client = new pg.Client({ connectionString: db.directUrl, application_name: 'ark-migrate', connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7469201)');
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    // The runner's own bookkeeping table (created above, left out of the generated schema): its columns typed here.
    const q = kx(onClient(client)).withTables<{ schema_migrations: { name: string; checksum: string | null } }>();
    const rows = await q.selectFrom('schema_migrations').select(['name', 'checksum']).execute();
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    const changed: string[] = [];
    for (const [name, stored] of done) {
      const text = texts.get(name);
      if (text === undefined) continue; // a file since retired: nothing to compare
      const sum = migrationChecksum(text);
      if (stored === null) await q.updateTable('schema_migrations').set({ checksum: sum }).where('name', '=', name).execute();
      else if (stored !== sum) changed.push(name);
    }
    if (changed.length) throw new ChangedMigrationError(changed.sort());
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = texts.get(file) ?? '';
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await q
          .insertInto('schema_migrations')
          .values({ name: file, checksum: migrationChecksum(sql) })
          .execute();
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7469201)').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  return applied;
}
