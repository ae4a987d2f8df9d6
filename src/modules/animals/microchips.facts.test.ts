import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chipFacts, normalizeMicrochip } from './microchips.facts.ts';

test('chip facts: country below 900, maker from 900, other standards by length, warnings', () => {
  assert.equal(normalizeMicrochip('985-112 003.456*789'), '985112003456789');
  const de = chipFacts('276098106123456');
  assert.deepEqual([de.standard, de.country_code, de.country_name, de.manufacturer_code], ['iso_11784', 'DE', 'Germany', null]);
  const maker = chipFacts('981020000123456');
  assert.deepEqual([maker.country_code, maker.manufacturer_code, maker.manufacturer], [null, '981', 'Datamars']);
  assert.equal(chipFacts('985112003456789').manufacturer, 'Destron Fearing (HomeAgain)');
  assert.equal(chipFacts('950000000000001').manufacturer, null);
  assert.deepEqual(
    chipFacts('000123456789012').warnings.map((w) => w.code),
    ['unknown_country'],
  );
  assert.equal(chipFacts('0A0B0C0D0E').standard, 'fdx_a');
  assert.equal(chipFacts('123456789').standard, 'avid');
  assert.deepEqual(
    chipFacts('12345').warnings.map((w) => w.code),
    ['unusual_length'],
  );
  assert.deepEqual(
    chipFacts('98511200345678X').warnings.map((w) => w.code),
    ['not_digits'],
  );
  assert.deepEqual(chipFacts('123456789').warnings, []);
});
