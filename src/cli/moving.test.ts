import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { testApp, type TestApp } from '../../test/harness.ts';
import { base62 } from '../platform/ids.ts';
import { asm3Csv } from '../modules/moving/fixtures/asm3.ts';
import { petpointFiles, shelterluvFiles } from '../modules/moving/fixtures/others.ts';
import { ark } from './cli.test-helpers.ts';

let t: TestApp;
const dirs: string[] = [];
before(async () => {
  t = await testApp();
});
after(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await t.close();
});

function folder(files: Record<string, string>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'ark-move-'));
  dirs.push(d);
  for (const [n, c] of Object.entries(files)) writeFileSync(path.join(d, n), c);
  return d;
}

test('ark import: dry run prints counts and mappings; the real run writes; the same move again changes nothing', async () => {
  const s = `mv-${base62(8).toLowerCase()}`;
  assert.equal((await ark(['org', 'create', s, '--name', 'Moving Rescue'])).code, 0);
  const pp = folder(petpointFiles(40));
  const dry = await ark(['import', 'petpoint', s, pp, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^Dry run from petpoint:/m);
  assert.match(dry.stdout, /animal\s+\d+ new/);
  assert.match(dry.stdout, /Owner\/Guardian Surrender \(\d+\) → relinquished/);
  const real = await ark(['import', 'petpoint', s, pp]);
  assert.equal(real.code, 0, real.stderr);
  assert.match(real.stdout, /^Moved from petpoint:/m);
  const again = await ark(['import', 'petpoint', s, pp]);
  assert.equal(again.code, 0, again.stderr);
  for (const line of again.stdout.split('\n').filter((l) => /^\s+(person|animal|stay)\s+\d+ new/.test(l)))
    assert.match(line, / 0 new, 0 updated/);
  const sl = await ark(['import', 'shelterluv', s, folder(shelterluvFiles(20)), '--dry-run']);
  assert.equal(sl.code, 0, sl.stderr);
  assert.match(sl.stdout, /Dry run from shelterluv/);
  const asm = await ark(['import', 'asm3', s, '--csv', folder({ 'export.csv': asm3Csv(20) }), '--dry-run']);
  assert.equal(asm.code, 0, asm.stderr);
  assert.match(asm.stdout, /Dry run from asm3/);
});

test('ark import: bad arguments are refused before anything is read', async () => {
  const both = await ark(['import', 'asm3', 'some-org', '--csv', '/tmp', '--database', 'postgres://x']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /one of --database <url> or --csv <dir>/);
  const order = await ark(['import', 'petpoint', 'some-org', '/tmp', '--date-order', 'ymd']);
  assert.equal(order.code, 2);
  const none = await ark(['import', 'shelterluv', 'no-such-org-here', '/tmp']);
  assert.notEqual(none.code, 0);
  assert.match(none.stderr, /no organization no-such-org-here/);
});
