import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setClause, Where } from './sql.ts';

test('Where numbers its parameters after the organization, then the page', () => {
  const w = new Where('org_1', 'u.organization_id');
  w.eq('u.status', 'active').and((p) => `u.name ILIKE ${p('%a%')}`);
  const page = w.page(26, 50);
  assert.equal(w.sql, 'u.organization_id = $1 AND u.status = $2 AND u.name ILIKE $3');
  assert.equal(page, 'LIMIT $4 OFFSET $5');
  assert.deepEqual(w.params, ['org_1', 'active', '%a%', 26, 50]);
});

test('setClause keeps the listed columns present in the patch, in list order, encoded', () => {
  const set = setClause({ notes: null, custom_fields: { a: 1 } }, ['name', 'custom_fields', 'notes'], 3, (c, v) =>
    c === 'custom_fields' ? JSON.stringify(v) : v,
  );
  assert.equal(set.sql, 'custom_fields = $3, notes = $4');
  assert.deepEqual(set.params, ['{"a":1}', null]);
  assert.deepEqual(setClause({}, ['name'], 3).sql, '');
});
