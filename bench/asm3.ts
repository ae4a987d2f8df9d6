/**
 * Side by side with Animal Shelter Manager 3 (ASM3, the open-source shelter system): its public service answers
 * (the adoptable list `html_adoptable_animals`, an animal's page `animal_view`) from its server-side response cache,
 * driven with the same connections and durations as Ark's public list and animal page, warm and cold, alternating
 * round by round so that the machine's other load falls on both alike.
 *
 * Given by `--asm3 <baseUrl>` (or ASM3_URL), with `--asm3-pid <pid>` (or ASM3_PID) for CPU per request from
 * /proc (the process with all its threads), and ASM3_DATABASE_URL to add the PostgreSQL backends it holds open
 * (a cached answer touches no database). ASM3_ANIMAL_IDS (default `1-200`) are the animals whose pages are asked
 * for; each of them, and the list, is fetched once before measuring so that what is measured is the cached answer.
 * Without a base URL nothing here runs and the bench prints Ark alone.
 */
import http from 'node:http';
import pg from 'pg';
import { CONNECTIONS, CpuMeter, drive, idsOf, median, procTimes, useIds, type Pass, type Target } from './load.ts';

export interface Asm3Options {
  base: string;
  pid: number | null;
  databaseUrl: string | null;
  ids: number[];
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function parseIds(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || !Number.isFinite(a)) continue;
    for (let n = a; n <= (b !== undefined && Number.isFinite(b) ? b : a); n++) out.push(n);
  }
  return out;
}

/** The comparison's options from the command line or the environment; null when no ASM3 is given. */
export function asm3Options(): Asm3Options | null {
  const base = arg('--asm3') ?? process.env.ASM3_URL;
  if (!base) return null;
  const pid = Number(arg('--asm3-pid') ?? process.env.ASM3_PID ?? NaN);
  return {
    base: base.replace(/\/+$/, ''),
    pid: Number.isInteger(pid) && pid > 0 ? pid : null,
    databaseUrl: process.env.ASM3_DATABASE_URL ?? null,
    ids: parseIds(process.env.ASM3_ANIMAL_IDS ?? '1-200'),
  };
}

/** CPU of one process (all its threads), for an ASM3 whose database backends are not read. */
class ProcMeter {
  constructor(private readonly pid: number) {}
  async read(): Promise<{ server: number; total: number } | null> {
    const t = procTimes(this.pid);
    return t === null ? null : { server: t, total: t };
  }
}

function fetchOnce(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { timeout: 3_600_000 }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      })
      .on('error', reject);
  });
}

/** Every address a warm line asks for, once, so that its pass starts with the cache filled (a cold line's reset empties it). */
async function fill(t: Target): Promise<void> {
  const ids = t.ids ? idsOf(t.ids) : [''];
  for (const id of t.path.includes('{id}') ? ids : ['']) {
    await new Promise<void>((resolve, reject) => {
      http
        .get(t.origin + t.path.replace('{id}', id), { headers: t.headers }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject);
    });
  }
}

interface Line {
  name: string;
  passes: Pass[];
}
const rpsOf = (l: Line) => l.passes.map((p) => p.rps);
const cpuOf = (l: Line) => {
  const c = l.passes.map((p) => p.cpuUs).filter((x): x is number => x !== null);
  return c.length ? median(c) : null;
};

/**
 * Drives ASM3's list and animal page alternating with Ark's warm and cold lines; prints min/median/max req/s, CPU µs
 * per request and the ratios Ark ÷ ASM3 against the targets (≥ 10× with Ark's cache warm, ≥ 2× cold).
 */
export async function sideBySide(
  o: Asm3Options,
  ark: Record<'listWarm' | 'listCold' | 'pageWarm' | 'pageCold', Target>,
  opts: { seconds: number; rounds: number; meter: Pick<CpuMeter, 'read'>; coldReset: () => Promise<void> },
): Promise<void> {
  const origin = new URL(o.base).origin;
  const prefix = new URL(o.base).pathname.replace(/\/+$/, '');
  const listPath = `${prefix}/service?method=html_adoptable_animals`;
  const pagePath = `${prefix}/service?method=animal_view&animalid={id}`;
  console.log(`  Animal Shelter Manager 3 at ${o.base}: filling its response cache (the list and ${o.ids.length} animal pages)…`);
  const list = await fetchOnce(origin + listPath);
  if (list.status !== 200) throw new Error(`ASM3's list answered ${list.status}`);
  const good: string[] = [];
  for (const id of o.ids) if ((await fetchOnce(origin + pagePath.replace('{id}', String(id)))).status === 200) good.push(String(id));
  if (!good.length) throw new Error('no ASM3 animal page answered 200');
  useIds(good, 'asm3');
  console.log(`  its list is ${(list.bytes / 1e6).toFixed(1)} MB; ${good.length} animal pages answered`);

  let asmMeter: Pick<CpuMeter, 'read'> | undefined;
  let asmClient: pg.Client | null = null;
  let cpuSays = 'no --asm3-pid: ASM3 CPU not read';
  if (o.pid !== null) {
    if (o.databaseUrl) {
      asmClient = new pg.Client({ connectionString: o.databaseUrl });
      await asmClient.connect();
      asmMeter = new CpuMeter(o.pid, asmClient);
      cpuSays = 'ASM3 CPU: its process and the PostgreSQL backends it holds open';
    } else {
      asmMeter = new ProcMeter(o.pid);
      cpuSays = 'ASM3 CPU: its process alone (no ASM3_DATABASE_URL)';
    }
  }
  const headers = { host: new URL(o.base).host, 'accept-encoding': 'br, gzip' };
  const asmList: Target = { name: 'ASM3 adoptable list, cached', origin, method: 'GET', path: listPath, headers };
  const asmPage: Target = { name: 'ASM3 animal page, cached', ids: 'asm3', origin, method: 'GET', path: pagePath, headers };
  const order: [Target, 'ark' | 'asm' | 'cold'][] = [
    [ark.listWarm, 'ark'],
    [ark.listCold, 'cold'],
    [asmList, 'asm'],
    [ark.pageWarm, 'ark'],
    [ark.pageCold, 'cold'],
    [asmPage, 'asm'],
  ];
  const lines = new Map<string, Line>(order.map(([t]) => [t.name, { name: t.name, passes: [] }]));
  for (let r = 0; r < opts.rounds; r++) {
    for (const [t, kind] of order) {
      if (kind === 'cold') await opts.coldReset();
      if (kind === 'ark') await fill(t);
      const p = await drive(t, opts.seconds, kind === 'asm' ? asmMeter : opts.meter);
      lines.get(t.name)?.passes.push(p);
    }
  }
  console.log(
    `  Side by side, ${CONNECTIONS} connections, ${opts.rounds}×${opts.seconds}s alternating (${cpuSays}; Ark: its process + PostgreSQL):`,
  );
  for (const [t] of order) {
    const l = lines.get(t.name);
    if (!l) continue;
    const rps = rpsOf(l);
    const cpu = cpuOf(l);
    console.log(
      `    ${l.name.padEnd(46)} req/s min ${Math.min(...rps)
        .toFixed(1)
        .padStart(7)} median ${median(rps).toFixed(1).padStart(7)} max ${Math.max(...rps)
        .toFixed(1)
        .padStart(7)}   ${cpu === null ? 'CPU n/a' : `CPU ${cpu.toFixed(0).padStart(7)} µs/req`}`,
    );
  }
  const ratio = (what: string, arkName: string, asmName: string, target: number) => {
    const a = lines.get(arkName);
    const b = lines.get(asmName);
    if (!a || !b) return;
    const byRps = median(rpsOf(a)) / median(rpsOf(b));
    const ca = cpuOf(a);
    const cb = cpuOf(b);
    const byCpu = ca !== null && cb !== null && ca > 0 ? cb / ca : null;
    const verdict = (x: number) => (x >= target ? 'meets' : 'SHORT of');
    console.log(
      `    Ark ${what} ÷ ASM3: ${byRps.toFixed(1)}× by req/s (${verdict(byRps)} ${target}×)` +
        (byCpu === null ? '' : `, ${byCpu.toFixed(1)}× by CPU per request (${verdict(byCpu)} ${target}×)`),
    );
  };
  ratio('list, cache warm', ark.listWarm.name, asmList.name, 10);
  ratio('list, cache cold', ark.listCold.name, asmList.name, 2);
  ratio('animal page, cache warm', ark.pageWarm.name, asmPage.name, 10);
  ratio('animal page, cache cold', ark.pageCold.name, asmPage.name, 2);
  await asmClient?.end();
}
