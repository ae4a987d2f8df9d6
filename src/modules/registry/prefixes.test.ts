import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chipPrefix } from './prefixes.ts';

test('a 15-digit chip names its country (001-899) or its maker (900-999)', () => {
  assert.deepEqual(chipPrefix('276098100123456'), { format: 'iso_15_digit', country: 'DE', manufacturer_code: null, manufacturer: null });
  assert.deepEqual(chipPrefix('826012345678901'), { format: 'iso_15_digit', country: 'GB', manufacturer_code: null, manufacturer: null });
  assert.deepEqual(chipPrefix('981020000123456'), {
    format: 'iso_15_digit',
    country: null,
    manufacturer_code: '981',
    manufacturer: 'Datamars',
  });
  assert.equal(chipPrefix('968000001234567').manufacturer, 'AEG');
  assert.equal(chipPrefix('972000001234567').manufacturer, 'Planet-ID');
  // An unknown maker code is still a maker code; an unassigned country code names no country.
  assert.deepEqual(chipPrefix('999000001234567'), { format: 'iso_15_digit', country: null, manufacturer_code: '999', manufacturer: null });
  assert.equal(chipPrefix('000000001234567').country, null);
});

test('older formats are recognised by shape; anything else is "other"', () => {
  assert.equal(chipPrefix('123456789').format, 'avid_9_digit');
  assert.equal(chipPrefix('123456789').manufacturer, 'AVID');
  assert.equal(chipPrefix('0A1B2C3D4E').format, 'fdx_a_10_character');
  assert.equal(chipPrefix('98511200345678').format, 'other');
  assert.equal(chipPrefix('ABC').format, 'other');
});
