/** The one filler of record merge fields, as messages and adoption contracts use it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordMergeValues } from './blocks.ts';

const ann = { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.org', phone: null };
const bo = { first_name: 'Bo', last_name: 'Ray', email: 'bo@example.org', phone: '+15550100' };
const rex = { name: 'Rex', species: 'dog', breed: null, sex: 'male', microchip_number: '985112345678901' };
const tig = { name: 'Tig', species: 'cat', breed: 'tabby', sex: 'female', microchip_number: null };

test('a message leaves a field with no value unfilled and lists several people or animals', () => {
  assert.deepEqual(recordMergeValues([ann, bo], [rex, tig], 'Paws'), {
    org_name: 'Paws',
    first_name: 'Ann and Bo',
    last_name: 'Lee and Ray',
    full_name: 'Ann Lee and Bo Ray',
    email: 'ann@example.org and bo@example.org',
    phone: '+15550100',
    animal_name: 'Rex and Tig',
    animal_species: 'dog and cat',
    animal_breed: 'tabby',
    animal_sex: 'male and female',
    animal_id: '985112345678901',
  });
  assert.deepEqual(recordMergeValues([ann], [], 'Paws'), {
    org_name: 'Paws',
    first_name: 'Ann',
    last_name: 'Lee',
    full_name: 'Ann Lee',
    email: 'ann@example.org',
  });
});

test('a contract fills every field: unknown facts read "unknown", a missing chip "none", a missing phone nothing', () => {
  assert.deepEqual(recordMergeValues([ann], [rex, tig], 'Paws', { complete: true }), {
    org_name: 'Paws',
    first_name: 'Ann',
    last_name: 'Lee',
    full_name: 'Ann Lee',
    email: 'ann@example.org',
    phone: '',
    animal_name: 'Rex and Tig',
    animal_species: 'dog and cat',
    animal_breed: 'unknown and tabby',
    animal_sex: 'male and female',
    animal_id: '985112345678901 and none',
    microchip: '985112345678901 and none',
  });
});
