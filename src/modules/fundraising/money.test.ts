import assert from 'node:assert/strict';
import { test } from 'node:test';
import { amount, checkCustomFields, deductiblePart, formatMoney, parseAmount, sumByCurrency } from './money.ts';
import { AppError } from '../../platform/errors.ts';

test('parseAmount keeps exact minor units and refuses too many decimals', () => {
  const e: Record<string, string[]> = {};
  assert.equal(parseAmount(e, 'a', 12.34, 'USD'), 1234n);
  assert.equal(parseAmount(e, 'a', 0.1 + 0.2, 'USD'), null);
  assert.ok(e.a);
  const f: Record<string, string[]> = {};
  assert.equal(parseAmount(f, 'a', 500, 'JPY'), 500n);
  assert.equal(parseAmount(f, 'b', 5.5, 'JPY'), null);
  assert.equal(parseAmount(f, 'c', 0, 'USD'), null);
  assert.equal(parseAmount(f, 'd', 0, 'USD', { allowZero: true }), 0n);
  assert.equal(parseAmount(f, 'e', 1.234, 'BHD'), 1234n);
});

test('amount and formatMoney render from minor units', () => {
  assert.equal(amount('1999', 'USD'), 19.99);
  assert.equal(amount(500n, 'JPY'), 500);
  assert.equal(amount(null, 'USD'), null);
  assert.equal(formatMoney(123456789n, 'USD'), 'USD 1,234,567.89');
  assert.equal(formatMoney('5', 'USD'), 'USD 0.05');
  assert.equal(formatMoney(1500n, 'JPY'), 'JPY 1,500');
});

test('sumByCurrency never mixes currencies', () => {
  const m = sumByCurrency([
    { currency: 'USD', amount_minor: '100' },
    { currency: 'EUR', amount_minor: 5n },
    { currency: 'USD', amount_minor: '250' },
  ]);
  assert.deepEqual(
    [...m.entries()],
    [
      ['USD', 350n],
      ['EUR', 5n],
    ],
  );
});

test('deductible part is price minus fair market value, never below zero', () => {
  assert.equal(deductiblePart(50000n, 20000n), 30000n);
  assert.equal(deductiblePart(10000n, 20000n), 0n);
  assert.equal(deductiblePart(10000n, null), 10000n);
});

test('custom fields: simple values, at most 50 keys, snake_case keys', () => {
  assert.deepEqual(checkCustomFields({ a: 'x', b_2: 3, c: true }), { a: 'x', b_2: 3, c: true });
  const bad = (v: unknown) =>
    assert.throws(
      () => checkCustomFields(v),
      (e: unknown) => e instanceof AppError && e.status === 422,
    );
  bad({ a: { nested: 1 } });
  bad({ a: [1] });
  bad({ a: null });
  bad({ 'Bad Key': 1 });
  bad([1]);
  bad({ long: 'x'.repeat(2001) });
  bad(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])));
  assert.equal(Object.keys(checkCustomFields(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])))).length, 50);
});
