/**
 * The checked-in row types (src/platform/db/schema.generated.ts) are what the migrations produce: the test run's
 * database is freshly migrated, so its tables and views regenerate the file exactly, or a migration landed without
 * `npm run db-types`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCHEMA_FILE, schemaTypes } from './schema-types.ts';

test('the generated row types match the migrated database', async () => {
  const url = process.env.ARK_TEST_DATABASE_URL;
  if (!url) throw new Error('ARK_TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const want = await schemaTypes(url);
  const have = readFileSync(SCHEMA_FILE, 'utf8');
  if (have === want) return;
  const a = have.split('\n');
  const b = want.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  assert.fail(
    `src/platform/db/schema.generated.ts differs from the migrated database from line ${at + 1} ` +
      `(checked in: ${JSON.stringify(a[at])}, migrations give: ${JSON.stringify(b[at])}); run \`npm run db-types\` and commit it`,
  );
});

test('every registered person reference names a table and columns of the generated schema', async () => {
  await import('../src/modules/index.ts'); // every module registers its references when loaded
  const { checkedPersonReferences } = await import('../src/modules/people/merge.ts');
  const refs = checkedPersonReferences(); // throws on a name the schema does not have
  assert.ok(refs.length > 20);
  for (const r of refs) assert.ok(r.key.length > 0, `${r.table} has a primary key`);
});
