/**
 * Writes Ark's OpenAPI descriptions (both families) and generates the app's API types from them with
 * openapi-typescript: a changed schema breaks the app's typecheck, not the app at run time.
 * With --check (what CI runs) nothing is written: it fails, naming the file, when the checked-in
 * web/src/api/*.d.ts differ from what the served descriptions generate today.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Db } from '../../src/platform/db/db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const check = process.argv.includes('--check');
const out = check ? mkdtempSync(path.join(tmpdir(), 'ark-api-types-')) : path.join(ROOT, 'web/src/api');
const generated = path.join(ROOT, 'web/generated');
const db = new Db('postgres://ark@127.0.0.1:1/none', 1); // never connected: the descriptions need no database
const { app } = await buildApp({ config: loadConfig({}), db });
mkdirSync(generated, { recursive: true });
const stale: string[] = [];
for (const [file, url] of [
  ['a', '/api/v1/openapi.json'],
  ['b', '/api/openapi.json'],
] as const) {
  const res = await app.inject({ method: 'GET', url });
  const json = path.join(generated, `openapi-${file}.json`);
  writeFileSync(json, res.body);
  const target = path.join(out, `${file}.d.ts`);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), json, '-o', target], {
    stdio: check ? 'ignore' : 'inherit',
  });
  if (check && readFileSync(target, 'utf8') !== readFileSync(path.join(ROOT, 'web/src/api', `${file}.d.ts`), 'utf8')) {
    stale.push(`web/src/api/${file}.d.ts`);
  }
}
await app.close();
await db.close().catch(() => undefined);
if (check) {
  rmSync(out, { recursive: true, force: true });
  if (stale.length) {
    console.error(`${stale.join(' and ')} differ from the served OpenAPI descriptions: run \`npm run api-types\` and commit the result.`);
    process.exit(1);
  }
  console.log('web/src/api/*.d.ts match the served OpenAPI descriptions.');
}
