/**
 * What every benchmark script sets up the same way: a migrated store (DATABASE_URL, or an embedded PostgreSQL of its
 * own under .tmp/), a free loopback port, and Ark as `npm start` runs it, as a child process on that store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The store a bench runs on, migrated: its URL, a pool, an admin client for seeding, and how to let it all go. */
export async function benchStore(tag: string, poolSize = 4) {
  const dataDir = path.resolve(`.tmp/bench-${tag}-pg-${process.pid}`);
  let url = process.env.DATABASE_URL;
  let stopEmbedded = async () => undefined as void;
  if (!url) {
    rmSync(dataDir, { recursive: true, force: true });
    const h = await startEmbedded(dataDir);
    url = h.url;
    stopEmbedded = async () => {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const db = new Db(url, poolSize);
  await migrate(db);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  return {
    url,
    db,
    admin,
    async stop() {
      await admin.end();
      await db.close();
      await stopEmbedded();
    },
  };
}

/** Ark on `url` as a child process with rate limits out of the way; resolves once it says it serves. */
export async function startArk(url: string): Promise<{ ark: ChildProcess; origin: string; stop(): Promise<void> }> {
  const port = await freePort();
  const ark = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      ARK_SMTP_INBOUND_PORT: String(await freePort()),
      ARK_RATE_LIMIT_PER_MINUTE: '1000000000',
      ARK_PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    ark.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('Ark serves')) resolve();
      else if (buf.length > 100_000) buf = buf.slice(-1000);
    });
    ark.on('exit', (code) => reject(new Error(`Ark exited ${code}`)));
  });
  ark.stdout?.resume();
  return {
    ark,
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      ark.kill('SIGTERM');
      await new Promise((r) => ark.once('exit', r));
    },
  };
}
