/**
 * How a test starts one of Ark's entry points (src/main.ts, src/cli/main.ts) in a child process: from the test
 * runner's transpiled mirror when it built one (test/compile.ts; `ARK_TEST_COMPILED_ROOT`), which spares the child
 * tsx's loader (about two seconds of CPU a start), else through tsx. Source maps are on, so a child's stack traces and
 * its statements in the table-ownership trace name the `.ts` files.
 */
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Node's arguments before the entry's own: `[...nodeArgsFor('src/cli/main.ts'), 'org', 'create', …]`. */
export function nodeArgsFor(entry: string): string[] {
  const file = path.resolve(ROOT, entry);
  const compiled = process.env.ARK_TEST_COMPILED_ROOT;
  if (!compiled) return ['--import', 'tsx', file];
  return ['--enable-source-maps', path.join(compiled, path.relative(ROOT, file)).replace(/\.ts$/, '.js')];
}
