/**
 * A node:test reporter that prints, when the run ends, the test files that took longest (the sum of each file's
 * top-level tests) and the run's total, so the suite's cost stays visible as it grows. test/run.ts adds it beside
 * the TAP reporter.
 */
interface TestEvent {
  type: string;
  data?: { nesting?: number; file?: string; details?: { duration_ms?: number } };
}

const SHOWN = 12;

export default async function* slowest(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const files = new Map<string, number>();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const d = event.data;
    if (!d?.file || d.nesting !== 0) continue;
    files.set(d.file, (files.get(d.file) ?? 0) + (d.details?.duration_ms ?? 0));
  }
  const root = process.cwd();
  const sorted = [...files].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((n, [, ms]) => n + ms, 0);
  const name = (f: string) =>
    f
      .replace(/^.*\.tmp\/js-\d+\//, '')
      .replace(`${root}/`, '')
      .replace(/\.js$/, '.ts');
  yield `# test files by time (sum of their tests): ${files.size} files, ${(total / 1000).toFixed(0)} s in all; the slowest:\n`;
  for (const [f, ms] of sorted.slice(0, SHOWN)) yield `#   ${(ms / 1000).toFixed(1).padStart(7)} s  ${name(f)}\n`;
}
