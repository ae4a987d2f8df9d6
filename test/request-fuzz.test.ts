import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { testApp, makeOrg, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';

// Generated request bodies never answer 500: whatever JSON arrives (deeply nested, lone surrogates,
// NUL characters, odd types), the answer is the family's 4xx shape or a success.

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

test('a body nested absurdly deep answers 400 in the family shape, never 500', async () => {
  const org = await makeOrg(t);
  for (const [url, method] of [
    ['/api/v1/animals', 'POST'],
    ['/api/animals/statuses', 'POST'],
  ] as const) {
    for (const body of [`{"a":${nested(100_000, '[', ']')}}`, nested(100_000, '{"a":', '}'), `{"name":${nested(65, '[', ']')}}`]) {
      const r = await org.req(method, url, { rawBody: body });
      assertErrorShape(url, r, 400);
      assert.match(JSON.stringify(r.body), /nests more than 64 levels deep/);
    }
  }
  // Ordinary nesting is untouched.
  const ok = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Intake', intakeDate: '2026-01-01' },
  });
  assert.equal(ok.status, 201, ok.raw);
});

test('a lone surrogate in an email answers 422 naming the field, never 500', async () => {
  const org = await makeOrg(t);
  for (const e of ['\ud800', 'a\udc00@example.org', 'x@example\ud83d.org']) {
    const r = await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: e } });
    assertErrorShape('/api/v1/people', r, 422);
    assert.match(JSON.stringify(r.body), /email/);
    const m = await org.req('POST', '/api/members', { body: { name: 'A', email: e, role: 'staff' } });
    assertErrorShape('/api/members', m, 422);
  }
});

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\ud800', '\udfff', 'a\ud800b@example.org', '\u0000', '=1+1', '@x', ''),
);
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom('email', 'name', 'firstName', 'species'), hostileString), tie('value'), { maxKeys: 4 }),
  ),
})).value;

test('generated bodies (deep nesting, lone surrogates, NULs) answer 4xx in the family shape or succeed, never 500', async () => {
  const org = await makeOrg(t);
  const targets = ['/api/v1/people', '/api/members', '/api/animals/statuses', '/api/session'] as const;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...targets),
      fc.oneof(
        hostileJson.map((v) => JSON.stringify(v)),
        fc
          .record({ email: hostileString, firstName: hostileString, lastName: hostileString, name: hostileString, password: hostileString })
          .map((v) => JSON.stringify(v)),
        fc.integer({ min: 1, max: 20_000 }).map((d) => nested(d, '[', ']')),
        fc.integer({ min: 1, max: 20_000 }).map((d) => `{"email":${nested(d, '{"a":', '}')}}`),
      ),
      async (url, rawBody) => {
        const r = await org.req('POST', url, { rawBody });
        if (r.status >= 500) return false;
        if (r.status >= 400) assertErrorShape(url, r, r.status);
        return true;
      },
    ),
    // A counterexample can be megabytes of brackets: report its start only.
    {
      numRuns: 150,
      reporter: (out) =>
        assert.ok(
          !out.failed,
          `${String(out.counterexample?.[0])} ${String(out.counterexample?.[1]).slice(0, 300)} answered 500 (seed ${out.seed})`,
        ),
    },
  );
});
