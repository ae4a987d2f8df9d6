/**
 * Builds the staff app into web/dist. With --if-stale (what `npm start` runs) only when the build is
 * missing or older than a source file of the app.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
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
const sources = Math.max(newest(path.join(WEB, 'src')), statSync(path.join(WEB, 'index.html')).mtimeMs, statSync(path.join(WEB, 'vite.config.ts')).mtimeMs);
if (process.argv.includes('--if-stale') && existsSync(built) && statSync(built).mtimeMs >= sources) process.exit(0);
console.log('Building the staff app (web/) …');
execFileSync(process.execPath, [path.resolve(WEB, '../node_modules/vite/bin/vite.js'), 'build', '--config', path.join(WEB, 'vite.config.ts')], {
  stdio: 'inherit',
});
