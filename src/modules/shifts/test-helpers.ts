import assert from 'node:assert/strict';
import type { TestOrg } from '../../../test/harness.ts';
import { base62 } from '../../platform/ids.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB } from '../../platform/db/kysely.ts';

/** A person holding the volunteer role (made through Family A, as an integrator would). */
export async function volunteer(org: TestOrg, roles: string[] = ['volunteer']): Promise<string> {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Vol', lastName: base62(6), email: `v-${base62(10).toLowerCase()}@example.org`, roles },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data?.id ?? res.body.id;
}

export async function location(org: TestOrg, name: string): Promise<string> {
  const res = await org.req('POST', '/api/shifts/locations', { body: { name } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

export async function schedule(org: TestOrg, body: Record<string, unknown> = {}): Promise<{ id: string } & Record<string, unknown>> {
  const res = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Care day', ...(body.starts_at ? {} : { starts_at: '2099-06-01T08:00:00Z', ends_at: '2099-06-01T20:00:00Z' }), ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Rows of one of the module's tables held by the organization. */
export async function count(db: Queryable, table: keyof DB, orgId: string): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE organization_id = ${orgId}`.execute(kx(db));
  return r.rows[0]?.n ?? 0;
}
