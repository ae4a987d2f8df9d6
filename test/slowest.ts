/**
 * A node:test reporter that prints, when the run ends, the test files that took longest (the sum of each file's
 * top-level tests) and the run's total, so the suite's cost stays visible as it grows; and every failed test with the
 * first lines of its error. test/run.ts adds it beside the TAP reporter; when `ARK_TEST_FAILURES` names a folder, the
 * failures are also written there, so test/run.ts can repeat them at the very end of a run of both stores (a CI log
 * that shows only its tail still names what failed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface TestEvent {
  type: string;
  data?: { name?: string; nesting?: number; file?: string; details?: { duration_ms?: number; error?: unknown } };
}

const SHOWN = 12;

function firstLines(error: unknown): string {
  const e = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
  return text.split('\n').slice(0, 6).join('\n');
}

export default async function* slowest(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const files = new Map<string, number>();
  const failures: string[] = [];
  const root = process.cwd();
  const name = (f: string) =>
    f
      .replace(/^.*\.tmp\/js-\d+\//, '')
      .replace(`${root}/`, '')
      .replace(/\.js$/, '.ts');
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const d = event.data;
    if (event.type === 'test:fail' && d) {
      // A failed subtest fails its parent too; the deepest failure is the one that says why.
      const error = d.details?.error;
      const code = error && typeof error === 'object' && 'failureType' in error ? error.failureType : '';
      if (code !== 'subtestsFailed') failures.push(`${d.file ? name(d.file) : '?'}: ${d.name ?? '?'}\n${firstLines(error)}`);
    }
    if (!d?.file || d.nesting !== 0) continue;
    files.set(d.file, (files.get(d.file) ?? 0) + (d.details?.duration_ms ?? 0));
  }
  const sorted = [...files].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((n, [, ms]) => n + ms, 0);
  yield `# test files by time (sum of their tests): ${files.size} files, ${(total / 1000).toFixed(0)} s in all; the slowest:\n`;
  for (const [f, ms] of sorted.slice(0, SHOWN)) yield `#   ${(ms / 1000).toFixed(1).padStart(7)} s  ${name(f)}\n`;
  if (failures.length) {
    yield `# failed tests: ${failures.length}\n`;
    for (const f of failures) yield `${f.replace(/^/gm, '#   ')}\n`;
    const dir = process.env.ARK_TEST_FAILURES;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${process.pid}-${Date.now()}.txt`), `${failures.join('\n\n')}\n`);
    }
  }
}
