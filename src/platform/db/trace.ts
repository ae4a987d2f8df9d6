import { appendFileSync, mkdirSync } from 'node:fs';
import pg from 'pg';

/**
 * Statement tracing for the table-ownership check (test/ownership.ts). With `ARK_SQL_TRACE_DIR` set (the test
 * runner sets it), every statement any pg client sends is recorded once per process, tagged with the source file
 * that sent it (the nearest caller under src/ outside src/platform/db/; a test file's own statements are left out),
 * to `<dir>/<pid>.jsonl`; the runner parses each with PostgreSQL's own parser and fails when a module wrote a table
 * another module owns. Off otherwise.
 */
export interface TracedStatement {
  /** `platform`, or the module folder's name (src/modules/<name>/...). */
  module: string;
  /** The file under src/ that sent it, e.g. `modules/animals/repository.ts`. */
  file: string;
  sql: string;
}
const CALLER = /\/src\/((modules\/([a-z0-9_-]+)|platform|app\.ts|cli|config\.ts|main\.ts)[^\s:)]*)/;
/** The source file that sent a statement, from a stack trace: null when no file under src/ did (the runner, a test). */
export function callerOf(stack: string): { module: string; file: string } | null {
  for (const line of stack.split('\n').slice(1)) {
    if (line.includes('/src/platform/db/migrate.ts')) return null; // the schema's own migrations, not a module's statement
    // The pool hands a queued statement to a client from whichever request released one: that stack is not the
    // sender's (Db.query traced the statement when it was asked for).
    if (line.includes('/pg-pool/')) return null;
    if (line.includes('/src/platform/db/') || line.includes('node_modules')) continue;
    if (/\.test\.ts\b/.test(line)) return null; // a test's own statement (setting up or reading back), not a module's
    const m = CALLER.exec(line);
    if (m?.[1]) return { module: m[3] ?? 'platform', file: m[1] };
  }
  return null;
}
let traceSink: ((s: TracedStatement) => void) | null = null;
type Sink = (s: TracedStatement) => void;
/** Sends every traced statement to `sink` (null: stop); returns the sink it replaced. Installs the pg client hook the first time. */
export function traceStatements(sink: Sink | null): Sink | null {
  const before = traceSink;
  traceSink = sink;
  if (sink) hookClient();
  return before;
}
let hooked = false;
function hookClient(): void {
  if (hooked) return;
  hooked = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    traceCall(args[0]);
    return original.apply(this, args);
  };
}
/** Records one statement with its caller (the stack is captured here, synchronously under the caller's frame). */
export function traceCall(config: unknown): void {
  if (!traceSink) return;
  const sql = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  if (typeof sql !== 'string') return;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const where = callerOf(stack);
  if (where) traceSink({ ...where, sql });
}
if (process.env.ARK_SQL_TRACE_DIR) {
  const dir = process.env.ARK_SQL_TRACE_DIR;
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${process.pid}.jsonl`;
  const seen = new Set<string>();
  traceStatements((s) => {
    const key = `${s.file}\u0000${s.sql}`;
    if (seen.has(key)) return;
    seen.add(key);
    appendFileSync(file, `${JSON.stringify(s)}\n`);
  });
}
