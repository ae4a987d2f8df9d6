/**
 * The benchmark's instruments: a load generator (wrk when installed — it costs the measured
 * machine far less CPU than autocannon — else autocannon), and a CPU meter reading
 * /proc/<pid>/stat of the server process and of the PostgreSQL processes serving it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type pg from 'pg';

/**
 * One kind of request: `{id}` in the path and body (an id drawn at random from the `ids` list, default 'animals'),
 * `{u}` in the path and body (unique to the request across the whole run, e.g. for an email, or an address no cache
 * has seen) and `{n}` (10 to 59) in the body are replaced per request.
 */
export interface Target {
  name: string;
  ids?: string;
  origin: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Pass {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  requests: number;
  cpuUs: number | null;
  /** The server process's share of cpuUs (the rest is its PostgreSQL backends'). */
  serverUs: number | null;
}

export const CONNECTIONS = 20;
export const TOOL = spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk';

const work = mkdtempSync(path.join(tmpdir(), 'ark-bench-'));
const LUA = `
local ids = {}
for line in io.lines(os.getenv("BENCH_IDS")) do ids[#ids + 1] = line end
local method, template, body = os.getenv("BENCH_METHOD"), os.getenv("BENCH_PATH"), os.getenv("BENCH_BODY")
local run = os.getenv("BENCH_RUN")
math.randomseed(tonumber(os.getenv("BENCH_SEED")))
for h in string.gmatch(os.getenv("BENCH_HEADERS"), "[^\\n]+") do
  local k, v = string.match(h, "^([^:]+): (.*)$")
  -- wrk adds its own "Host" unless one is set under exactly that name
  if string.lower(k) == "host" then k = "Host" end
  wrk.headers[k] = v
end
local i = 0
request = function()
  i = i + 1
  local id = ids[math.random(#ids)]
  local p = string.gsub(string.gsub(template, "{id}", id), "{u}", run .. "-" .. tostring(i))
  local b = nil
  if body ~= "" then
    b = string.gsub(string.gsub(string.gsub(body, "{n}", tostring(i % 50 + 10)), "{id}", id), "{u}", run .. "-" .. tostring(i))
  end
  return wrk.format(method, p, nil, b)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;
const luaFile = path.join(work, 'ark.lua');
writeFileSync(luaFile, LUA);

const idLists = new Map<string, string[]>();
const idsFile = (kind: string) => path.join(work, `ids-${kind}.txt`);
/** The ids `{id}` takes for targets of this kind ('animals' unless a target says otherwise). */
export function useIds(list: string[], kind = 'animals'): void {
  const ids = list.length ? list : ['none'];
  idLists.set(kind, ids);
  writeFileSync(idsFile(kind), ids.join('\n') + '\n');
}
useIds([]);
/** The ids `{id}` takes for targets of this kind. */
export const idsOf = (kind: string): string[] => idLists.get(kind) ?? [];
/** An id of the target's kind drawn at random from all of them. */
const idFor = (t: Target): string => {
  const ids = idLists.get(t.ids ?? 'animals') ?? [];
  return ids[Math.floor(Math.random() * ids.length)] ?? 'none';
};
let runs = 0;
/** A token no other request of this run carries: the process, the pass and the request's number. */
const uniqueToken = (pass: string, i: number) => `${pass}-${i}`;
const nextPass = () => `${process.pid}x${++runs}x${Date.now().toString(36)}`;
/** The body of request `i` of a pass: `{n}`, `{id}` and `{u}` filled in. */
export function fillBody(body: string | undefined, i: number, id: string, pass: string): string | undefined {
  return body
    ?.replaceAll('{n}', String((i % 50) + 10))
    .replaceAll('{id}', id)
    .replaceAll('{u}', uniqueToken(pass, i));
}

async function runWrk(t: Target, seconds: number): Promise<Omit<Pass, 'cpuUs' | 'serverUs'>> {
  const env = {
    ...process.env,
    BENCH_IDS: idsFile(t.ids ?? 'animals'),
    BENCH_METHOD: t.method,
    BENCH_PATH: t.path,
    BENCH_BODY: t.body ?? '',
    BENCH_RUN: nextPass(),
    BENCH_SEED: String(Math.floor(Math.random() * 2 ** 31)),
    BENCH_HEADERS: Object.entries(t.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  };
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '-s', luaFile, t.origin], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    p.stdout.on('data', (c: Buffer) => (s += c.toString()));
    p.on('error', reject);
    p.on('exit', () => resolve(s));
  });
  const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out);
  if (!m) throw new Error(`wrk printed no result:\n${out}`);
  // The pattern has six groups, so every one is there.
  const [requests = 0, durationUs = 0, p50 = 0, p99 = 0, non2xx = 0, errors = 0] = m.slice(1).map(Number);
  return { requests, rps: requests / (durationUs / 1e6), p50: p50 / 1000, p99: p99 / 1000, bad: non2xx + errors };
}

async function runAutocannon(t: Target, seconds: number): Promise<Omit<Pass, 'cpuUs' | 'serverUs'>> {
  let i = 0;
  const pass = nextPass();
  const r = await autocannon({
    url: t.origin,
    connections: CONNECTIONS,
    duration: seconds,
    headers: t.headers,
    method: t.method,
    requests: [
      {
        method: t.method,
        setupRequest: (req) => {
          i++;
          const id = idFor(t);
          const body = fillBody(t.body, i, id, pass);
          return { ...req, path: t.path.replace('{id}', id).replace('{u}', `${pass}-${i}`), ...(body ? { body } : {}) };
        },
      },
    ],
  });
  return {
    requests: r.requests.total,
    rps: r.requests.total / (r.duration || seconds),
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

/** One request of `t`, for saying what a failing line answered. */
function sample(t: Target): Promise<string> {
  return new Promise((resolve) => {
    const id = idFor(t);
    const body = fillBody(t.body, 0, id, nextPass());
    const target = t.path.replace('{id}', id).replace('{u}', nextPass());
    const req = http.request(t.origin + target, { method: t.method, headers: t.headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(`${res.statusCode} ${text.slice(0, 200)}`));
    });
    req.on('error', (e) => resolve(e.message));
    req.end(body);
  });
}

/** Drives `t` for `seconds`; `cpu` (when given) is read just before and after. */
export async function drive(t: Target, seconds: number, cpu?: Pick<CpuMeter, 'read'>): Promise<Pass> {
  const before = cpu ? await cpu.read() : null;
  const r = TOOL === 'wrk' ? await runWrk(t, seconds) : await runAutocannon(t, seconds);
  const after = cpu ? await cpu.read() : null;
  const ok = before !== null && after !== null && r.requests > 0;
  const cpuUs = ok ? (after.total - before.total) / r.requests : null;
  const serverUs = ok ? (after.server - before.server) / r.requests : null;
  if (r.bad) console.log(`    ${t.name}: ${r.bad} of ${r.requests} answers were not 2xx; one now answers: ${await sample(t)}`);
  return { ...r, cpuUs, serverUs };
}

const TICK_US = 1e6 / Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim() || 100);

/** utime + stime of a process, in microseconds; null if gone. */
export function procTimes(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the name: state(0) ppid(1) … utime(11) stime(12)
    return (Number(f[11]) + Number(f[12])) * TICK_US;
  } catch {
    return null;
  }
}

/** Local TCP ports of a process's sockets (its end of each PostgreSQL connection). */
function localPorts(pid: number): Set<number> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSafe(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    }
  } catch {
    return new Set();
  }
  const ports = new Set<number>();
  for (const file of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const [inode, port] = [f[9], f[1]?.split(':')[1]];
      if (inode !== undefined && port !== undefined && inodes.has(inode)) ports.add(parseInt(port, 16));
    }
  }
  return ports;
}
function readlinkSafe(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return '';
  }
}

/**
 * CPU time used by a server process and by the PostgreSQL backends serving it: the backends of
 * the bench's database whose client port is one of the server's sockets (pg_stat_activity, read
 * from /proc, so the database must run on this machine).
 * Background processes (checkpointer, autovacuum, WAL writer) and other databases on a shared
 * server are left out: they move with whatever else the machine does, not with the requests.
 * Pools keep their connections for the whole run; a backend that went away keeps its last reading.
 */
export class CpuMeter {
  private known = new Map<number, number>();
  constructor(
    private readonly serverPid: number,
    private readonly admin: pg.ClientBase,
  ) {}

  /** CPU microseconds so far (the server process's and the total with its backends), or null when unreadable. */
  async read(): Promise<{ server: number; total: number } | null> {
    const server = procTimes(this.serverPid);
    if (server === null) return null;
    const rows = (
      await this.admin.query<{ pid: number; port: number }>(
        "SELECT pid, client_port AS port FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client " +
          "backend' AND pid <> pg_backend_pid()",
      )
    ).rows;
    const mine = localPorts(this.serverPid);
    let seen = 0;
    let read = 0;
    for (const { pid, port } of rows) {
      if (!mine.has(port)) continue;
      seen++;
      const t = procTimes(pid);
      if (t === null) continue; // it just exited, or the database runs on another machine
      read++;
      this.known.set(pid, t);
    }
    if (seen > 0 && read === 0) return null;
    // A backend that went away keeps its last reading.
    return { server, total: server + [...this.known.values()].reduce((a, b) => a + b, 0) };
  }
}

/** The median (the lower middle of an even count); NaN for no values. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
