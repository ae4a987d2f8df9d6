/**
 * Builds the staff app into web/dist. With --if-stale (what `npm start` runs) only when the build is
 * missing or older than a source file of the app.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const WEB = path.resolve(import.meta.dirname, '..');
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const s = statSync(full);
    t = Math.max(t, s.isDirectory() ? newest(full) : s.mtimeMs);
  }
  return t;
}
const built = path.join(WEB, 'dist', 'index.html');
const stale = () => {
  const sources = Math.max(newest(path.join(WEB, 'src')), statSync(path.join(WEB, 'index.html')).mtimeMs, statSync(path.join(WEB, 'vite.config.ts')).mtimeMs);
  return !existsSync(built) || statSync(built).mtimeMs < sources;
};
const ifStale = process.argv.includes('--if-stale');
if (ifStale && !stale()) process.exit(0);
// One build at a time: the browser test files run in parallel and each builds when stale. A second
// caller waits for the first (a directory as the lock; one left over 10 minutes is taken as abandoned).
const lock = path.join(WEB, '.build-lock');
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch {
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}
try {
  if (!ifStale || stale()) {
    console.log('Building the staff app (web/) …');
    execFileSync(process.execPath, [path.resolve(WEB, '../node_modules/vite/bin/vite.js'), 'build', '--config', path.join(WEB, 'vite.config.ts')], {
      stdio: 'inherit',
    });
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
