/**
 * Builds the staff app into web/dist. With --if-stale (what `npm start` runs) only when the build is
 * missing or older than a source file of the app.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  const sources = Math.max(
    newest(path.join(WEB, 'src')),
    statSync(path.join(WEB, 'index.html')).mtimeMs,
    statSync(path.join(WEB, 'vite.config.ts')).mtimeMs,
  );
  return !existsSync(built) || statSync(built).mtimeMs < sources;
};
const ifStale = process.argv.includes('--if-stale');
if (ifStale && !stale()) process.exit(0);
// One build at a time: the browser test files run in parallel and each builds when stale. A second
// caller waits for the first. The lock is a directory holding the builder's process id; a lock whose
// process is gone (a build stopped with Ctrl-C) or older than 10 minutes is taken as abandoned.
const lock = path.join(WEB, '.build-lock');
const abandoned = () => {
  try {
    if (Date.now() - statSync(lock).mtimeMs > 600_000) return true;
    process.kill(Number(readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return false;
  } catch (e) {
    // ESRCH: no such process. A lock just made (no pid written yet) or just removed is not abandoned.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
};
for (let waited = false; ; ) {
  try {
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    break;
  } catch {
    if (abandoned()) rmSync(lock, { recursive: true, force: true });
    else {
      if (!waited) console.log('Waiting for another build of the staff app …');
      waited = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}
try {
  if (!ifStale || stale()) {
    console.log('Building the staff app (web/) …');
    const vite = path.resolve(WEB, '../node_modules/vite/bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--config', path.join(WEB, 'vite.config.ts')], { stdio: 'inherit' });
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
