/**
 * Ark as a real server process for tests that need one (signals, kill -9, a database outage): spawned from
 * src/main.ts on a database of its own, talked to over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { Db } from '../src/platform/db/db.ts';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import { nodeArgsFor } from './entry.ts';

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

/** An empty database on the server of `serverUrl` (the server process migrates it when it starts). */
export async function emptyDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ark_proc_${process.pid}_${base62(6).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request on a fresh connection; `error` when the connection failed or was cut before an answer. */
export function call(
  port: number,
  opts: { method?: string; path: string; host?: string; key?: string; body?: unknown; timeoutMs?: number },
): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        agent: false,
        headers: {
          host: opts.host ?? 'localhost',
          ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(payload);
  });
}

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** Settles when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly alive: boolean;
  output(): string;
  /** Stops it (SIGKILL) if still running. */
  kill(): Promise<void>;
}

/** Spawns Ark (`src/main.ts`, see test/entry.ts) with these settings; resolves once /healthz answers 200. */
export async function startServer(env: Record<string, string>, readyMs = 180_000): Promise<ServerProcess> {
  const port = await freePort();
  // Its inbound mail listener on a free port of its own too: two servers (or another test's) never collide on 2525.
  const smtpPort = await freePort();
  const child = spawn(process.execPath, nodeArgsFor('src/main.ts'), {
    env: { ...process.env, ARK_LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ARK_SMTP_INBOUND_PORT: String(smtpPort), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      alive = false;
      resolve({ code, signal });
    }),
  );
  const server: ServerProcess = {
    port,
    child,
    exited,
    get alive() {
      return alive;
    },
    output: () => out,
    async kill() {
      if (alive) child.kill('SIGKILL');
      await exited;
    },
  };
  const end = Date.now() + readyMs;
  for (;;) {
    if (!alive) throw new Error(`the server exited before it was ready:\n${out}`);
    const res = await call(port, { path: '/healthz', timeoutMs: 2000 });
    if ('status' in res && res.status === 200) return server;
    if (Date.now() > end) {
      await server.kill();
      throw new Error(`the server was not ready in ${readyMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** An organization with an admin key, made straight in the database the server uses. */
export async function orgIn(url: string): Promise<{ id: string; host: string; key: string }> {
  const db = new Db(url, 1);
  try {
    const slug = `p-${base62(8).toLowerCase()}`;
    const org = await createOrganization(db, { slug, name: `Process ${slug}` });
    if (!org) throw new Error('no organization');
    const key = (await db.tx((q) => createKey(q, org.id, 'admin', null, 'test'))).key;
    return { id: org.id, host: `${slug}.localhost`, key };
  } finally {
    await db.close();
  }
}
