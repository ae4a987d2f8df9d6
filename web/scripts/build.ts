/**
 * Builds the staff app into web/dist (`npm run build`). With --if-stale (what `npm start` runs) only when
 * the build is missing or older than a source file of the app. A production install (`npm ci --omit=dev`)
 * has no Vite: there `npm start` serves the build that was made at build time, even when its files are
 * older than the sources (a copy or a checkout changes times), and refuses to start without one.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
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
/** Vite's command-line script as the web package resolves it, or undefined when the build tools are not installed. */
const viteBin = (() => {
  try {
    return path.join(path.dirname(createRequire(path.join(WEB, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    return undefined;
  }
})();
if (!viteBin) {
  if (ifStale && existsSync(built)) {
    console.log('The staff app’s build tools are not installed (a production install): serving the existing build in web/dist.');
    process.exit(0);
  }
  console.error(
    'The staff app is not built and its build tools are not installed: run `npm ci && npm run build` (with dev dependencies) first.',
  );
  process.exit(1);
}
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
    execFileSync(process.execPath, [viteBin, 'build', '--config', path.join(WEB, 'vite.config.ts')], { stdio: 'inherit' });
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
