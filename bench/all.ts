/**
 * `npm run bench [-- flags]`: runs bench/run.ts with the flags given (e.g. `--scale`), then, unless a
 * flag narrows the run (`--scale`, `--only=…`), the public-site and reports benches. npm appends
 * flags to the script's last command only, so this script hands them to the bench they belong to.
 */
import { spawnSync } from 'node:child_process';

const all = process.argv.slice(2);
// `--asm3 <url> --asm3-pid <pid>` belong to the public site's bench (bench/asm3.ts), not to the staff lines.
const asm3: string[] = [];
const args = all.filter((a, i) => {
  if (a === '--asm3' || a === '--asm3-pid') asm3.push(a, all[i + 1] ?? '');
  return !(a === '--asm3' || a === '--asm3-pid' || all[i - 1] === '--asm3' || all[i - 1] === '--asm3-pid');
});
const run = (file: string, extra: string[] = []) =>
  spawnSync(process.execPath, ['--import', 'tsx', file, ...extra], { stdio: 'inherit' }).status ?? 1;

let status = run('bench/run.ts', args);
// The public site at each size of the scale run (bench/public-scale.ts; BENCH_SIZES), or at 10,000 animals.
if (args.includes('--scale')) status ||= run('bench/public-scale.ts', asm3);
if (!args.some((a) => a === '--scale' || a.startsWith('--only'))) {
  status ||=
    spawnSync(process.execPath, ['--import', 'tsx', 'bench/public-scale.ts', ...asm3], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SIZES: '10000' },
    }).status ?? 1;
  status ||= run('bench/public.ts');
  status ||= run('bench/reports.ts');
}
process.exitCode = status;
