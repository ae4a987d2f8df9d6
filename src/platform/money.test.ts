import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moneyText } from './money.ts';

test('money reads as a person writes it, exactly, in each currency’s own decimals', () => {
  assert.equal(moneyText(125000, 'USD'), '$1,250.00');
  assert.equal(moneyText('7550', 'CAD'), 'CA$75.50');
  assert.equal(moneyText(1250n, 'JPY'), '¥1,250');
  assert.equal(moneyText(1234567, 'BHD'), 'BHD\u00a01,234.567');
  assert.equal(moneyText(5, 'EUR'), '€0.05');
  assert.equal(moneyText(-2500, 'GBP'), '-£25.00');
  assert.equal(moneyText(0, 'USD'), '$0.00');
  // Past 2^53 minor units a binary float would round the last digits; the text is exact.
  assert.equal(moneyText(9007199254740993n, 'USD'), '$90,071,992,547,409.93');
  // The same formatter serves every later call: the answer does not change with use.
  for (let i = 0; i < 3; i++) assert.equal(moneyText(199, 'USD'), '$1.99');
});
