import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defined } from './sql.ts';

test('defined drops the fields sent as undefined and keeps null (a field set to null is a field cleared)', () => {
  assert.deepEqual(defined({ a: 1, b: undefined, c: null, d: '' }), { a: 1, c: null, d: '' });
  assert.deepEqual(defined({}), {});
});
