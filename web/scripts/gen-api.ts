/**
 * Writes Ark's OpenAPI descriptions (both families) and generates the app's API types from them with
 * openapi-typescript: a changed schema breaks the app's typecheck, not the app at run time.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Db } from '../../src/platform/db/db.ts';

const db = new Db('postgres://ark@127.0.0.1:1/none', 1); // never connected: the descriptions need no database
const { app } = await buildApp({ config: loadConfig({}), db });
mkdirSync('web/generated', { recursive: true });
for (const [file, url] of [
  ['a', '/api/v1/openapi.json'],
  ['b', '/api/openapi.json'],
] as const) {
  const res = await app.inject({ method: 'GET', url });
  writeFileSync(`web/generated/openapi-${file}.json`, res.body);
  execFileSync(process.execPath, ['node_modules/openapi-typescript/bin/cli.js', `web/generated/openapi-${file}.json`, '-o', `web/src/api/${file}.d.ts`], {
    stdio: 'inherit',
  });
}
await app.close();
await db.close().catch(() => undefined);
