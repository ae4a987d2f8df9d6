import assert from 'node:assert/strict';
import type { TestOrg } from '../../../test/harness.ts';

let n = 0;
/**
 * An animal that is out of care: created on `dob` (or 2020-01-01), which opens its first stay, then
 * transferred out the same day, so its history starts wherever the test puts its intakes.
 */
export async function fresh(org: TestOrg, name: string, opts: { species?: string; dob?: string } = {}): Promise<string> {
  const day = opts.dob ?? '2020-01-01';
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `${name}`, species: opts.species ?? 'Dog', status: 'Available', intakeDate: day, dateOfBirth: opts.dob ?? null },
  });
  assert.equal(res.status, 201, res.raw);
  const id = res.body.id as string;
  await outcome(org, id, `${day}T18:00:00Z`, 'transfer_out');
  n++;
  return id;
}

export async function intake(org: TestOrg, id: string, at: string, type: string, more: Record<string, unknown> = {}): Promise<string> {
  const r = await org.req('POST', `/api/animals/${id}/intakes`, { body: { occurred_at: at, type, ...more } });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}

export async function outcome(org: TestOrg, id: string, at: string, type: string): Promise<string> {
  const r = await org.req('POST', `/api/animals/${id}/outcomes`, { body: { occurred_at: at, type } });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}

/** Places an animal in care in a new foster home from `startedOn`. */
export async function foster(org: TestOrg, animalId: string, startedOn: string): Promise<string> {
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Fran', lastName: `Foster${++n}`, email: `foster${n}.${Date.now()}@example.com` },
  });
  assert.equal(p.status, 201, p.raw);
  const h = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: p.body.id, capacity: 3 } });
  assert.equal(h.status, 201, h.raw);
  const homeId = (h.body.foster_home?.id ?? h.body.id) as string;
  const a = await org.req('POST', `/api/animals/foster-homes/${homeId}/assignments`, {
    body: { animal_id: animalId, requested_on: startedOn },
  });
  assert.equal(a.status, 201, a.raw);
  const s = await org.req('POST', `/api/animals/foster-assignments/${a.body.id}/start`, { body: { started_on: startedOn } });
  assert.equal(s.status, 200, s.raw);
  return a.body.id as string;
}
