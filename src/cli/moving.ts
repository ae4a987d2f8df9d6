import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { AppContext } from '../platform/context.ts';
import type { Store } from '../platform/db/connect.ts';
import type { CliIo } from './commands.ts';
import { Tenancy } from '../platform/tenancy.ts';

/** What `ark import` was asked to do (checked before the database is opened). */
export interface ImportPlan {
  source: 'asm3' | 'shelterluv' | 'petpoint';
  slug: string;
  dir?: string;
  database?: string;
  schema?: string;
  dryRun: boolean;
  dateOrder: 'dmy' | 'mdy';
  mappings?: string;
}

async function filesOf(dir: string, ext: RegExp): Promise<Record<string, string>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => ext.test(n)).sort();
  } catch {
    throw new Error(`cannot read the folder ${dir}`);
  }
  if (!names.length) throw new Error(`${dir} holds no ${ext.source.replace(/\\|\$|\(|\)|\?:|i$/g, '')} files`);
  const out: Record<string, string> = {};
  for (const n of names)
    out[n] = /\.xlsx$/i.test(n) ? (await readFile(join(dir, n))).toString('base64') : await readFile(join(dir, n), 'utf8');
  return out;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Reads the source, then the dry run (printed) or the real run (in this process, batch by batch, resumable). */
export async function runImport(store: Store, config: Config, p: ImportPlan, io: CliIo): Promise<void> {
  const { readSource } = await import('../modules/moving/sources/index.ts');
  const { readAsm3Database } = await import('../modules/moving/sources/asm3db.ts');
  const { dryRun, startRun, runMove, getRun } = await import('../modules/moving/service.ts');
  const tenancy = new Tenancy(store.db, config.baseDomain);
  const org = await tenancy.bySlug(p.slug);
  if (!org) throw new Error(`there is no organization ${p.slug}; make it with: ark org create ${p.slug} --name <name>`);
  const bundle = p.database
    ? await readAsm3Database(p.database, p.schema)
    : await readSource({
        source: p.source,
        files: await filesOf(p.dir ?? '.', p.source === 'shelterluv' ? /\.json$/i : /\.(csv|xlsx)$/i),
        date_order: p.dateOrder,
      });
  const mappings = p.mappings ? (JSON.parse(await readFile(p.mappings, 'utf8')) as object) : {};
  const print = (r: Awaited<ReturnType<typeof dryRun>>) => {
    io.out(`${r.dry_run ? 'Dry run' : 'Moved'} from ${r.source}:`);
    for (const [kind, c] of Object.entries(r.counts))
      io.out(
        `  ${kind.padEnd(9)} ${c.new} new, ${c.updated} updated, ${c.unchanged} unchanged, ${c.matched} matched, ${c.refused} refused`,
      );
    io.out('Intake types → SAC category:');
    for (const [label, cat] of Object.entries(r.mappings.intake)) io.out(`  ${label} (${r.mappings.counts.intake[label] ?? 0}) → ${cat}`);
    io.out('Outcome types → SAC category:');
    for (const [label, cat] of Object.entries(r.mappings.outcome)) io.out(`  ${label} (${r.mappings.counts.outcome[label] ?? 0}) → ${cat}`);
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    io.out(
      `SAC, last 12 months: intakes ${sum(r.sac_before.intake)} → ${sum(r.sac_after?.intake ?? {})}, ` +
        `outcomes ${sum(r.sac_before.outcome)} → ${sum(r.sac_after?.outcome ?? {})}`,
    );
    if (r.refused.length) {
      io.out(`Refused (first ${Math.min(r.refused.length, 20)}):`);
      for (const x of r.refused.slice(0, 20)) io.out(`  ${x.kind} ${x.row}: ${x.reason}`);
    }
  };
  if (p.dryRun) {
    print(await dryRun(store.db, org, bundle, mappings, 'cli'));
    return;
  }
  const ctx = { db: store.db, config, tenancy } as unknown as AppContext;
  const run = await startRun(ctx, org, bundle, mappings, 'cli');
  io.out(`Move ${run.id}: ${plural(run.total, 'record')} to write`);
  await runMove(ctx, org.id, run.id, async (x) => {
    const { done, total } = x as { done: number; total: number };
    io.err(`\r${done} of ${total}`);
  });
  io.err('\n');
  const finished = await getRun(store.db, org.id, run.id);
  if (finished) print(finished.report);
}
