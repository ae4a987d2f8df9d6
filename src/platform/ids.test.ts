/** Ids and keys (src/platform/ids.ts) come from a pool of system random bytes: right shape, every one new. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base62, KEY_PATTERN, newApiKey, newId } from './ids.ts';

test('ids keep their shape and never repeat across many refills of the random pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = newId('ani');
    assert.match(id, /^ani_[0-9A-Za-z]{20}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5000);
  assert.match(newApiKey(), KEY_PATTERN);
  assert.equal(base62(300).length, 300);
  // Every base62 character turns up (the rejection sampling keeps them uniform; 62 × 100 draws miss one ~never).
  assert.equal(new Set(base62(6200)).size, 62);
});
