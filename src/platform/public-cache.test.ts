import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicCache } from './public-cache.ts';

const MB = 1024 * 1024;
const keep = (c: PublicCache, org: string, key: string) =>
  c.put(org, key, c.generation(org), { status: 200, type: 'text/html', etag: '"e"', body: Buffer.alloc(MB), headers: {} });

test('past its 64 MB the cache forgets its oldest answers first, an eighth of the budget at a time, and keeps the newest', () => {
  const c = new PublicCache();
  // 40 answers of one organization, then 40 of another: 80 MB asked for, 64 MB allowed.
  for (let i = 0; i < 40; i++) keep(c, 'org_a', `a${i}`);
  for (let i = 0; i < 40; i++) keep(c, 'org_b', `b${i}`);
  const kept = (org: string, prefix: string) => Array.from({ length: 40 }, (_, i) => c.get(org, `${prefix}${i}`) !== undefined);
  const a = kept('org_a', 'a');
  const b = kept('org_b', 'b');
  // The oldest go first: what is kept of the first organization is its newest, in one run; the second keeps all.
  assert.ok(b.every(Boolean), 'the newer organization keeps every answer');
  const first = a.indexOf(true);
  assert.ok(first > 0, 'the oldest answers were forgotten');
  assert.ok(a.slice(first).every(Boolean), 'what is kept is the newest, with no gap');
  // Evicted down to 56 MB (64 less an eighth) when the budget was passed, then filled again: never over 64.
  const total = a.filter(Boolean).length + b.length;
  assert.ok(total <= 64 && total >= 56, `${total} answers of 1 MB kept`);
  // A forgotten organization starts again empty, and is kept as any other.
  for (let i = 0; i < 70; i++) keep(c, 'org_b', `c${i}`);
  assert.ok(
    kept('org_a', 'a').every((k) => !k),
    'the oldest organization is forgotten whole',
  );
  keep(c, 'org_a', 'again');
  assert.ok(c.get('org_a', 'again'));
});
