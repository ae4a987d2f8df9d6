import assert from 'node:assert/strict';
import type { TestOrg } from '../../../test/harness.ts';

let n = 0;
/** A Family A animal; `status` defaults to Available (in care). */
export async function animal(org: TestOrg, more: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `Pet ${++n}`, species: 'dog', status: 'Available', intakeDate: '2024-01-02', ...more },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
/** A Family A person. */
export async function person(org: TestOrg, more: Record<string, unknown> = {}): Promise<string> {
  const k = ++n;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: `First${k}`, lastName: `Last${k}`, email: `p${k}.${Date.now()}@example.com`, ...more },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
