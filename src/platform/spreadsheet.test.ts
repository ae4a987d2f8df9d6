import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeCell, safeRow } from './spreadsheet.ts';

test('text that a spreadsheet would read as a formula gets a quote in front; numbers and other text stay', () => {
  for (const s of ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) assert.equal(safeCell(s), `'${s}`);
  for (const v of ['Rex', '', ' =1', "'=1", 'a=b', -5, 0, 12.5, true, null, undefined]) assert.equal(safeCell(v), v);
  assert.deepEqual(safeRow(['=1', -1, 'x']), ["'=1", -1, 'x']);
  assert.deepEqual(safeRow({ a: '@x', b: -3 }), { a: "'@x", b: -3 });
});
