/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON answers of the API read as a client would */
// Helpers the portal's tests share: a person signed in to the portal, a foster with an animal in care, form posts.
import assert from 'node:assert/strict';
import type { TestApp, TestOrg } from '../../../test/harness.ts';
import { base62 } from '../../platform/ids.ts';

export interface PortalRes {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

/** A request to a portal page as a browser sends it: the portal cookie, and the page's Origin on a post. */
export async function portalReq(
  t: TestApp,
  org: Pick<TestOrg, 'host'>,
  method: 'GET' | 'POST',
  url: string,
  opts: {
    cookie?: string;
    form?: Record<string, string>;
    multipart?: { payload: Buffer; contentType: string };
    headers?: Record<string, string>;
  } = {},
): Promise<PortalRes> {
  const headers: Record<string, string> = { host: org.host, ...(opts.headers ?? {}) };
  if (opts.cookie) headers.cookie = `ark_portal=${opts.cookie}`;
  if (method === 'POST' && !('origin' in headers)) headers.origin = `http://${org.host}`;
  let payload: string | Buffer | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(opts.form).toString();
  } else if (opts.multipart) {
    headers['content-type'] = opts.multipart.contentType;
    payload = opts.multipart.payload;
  }
  const res = await t.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

/** A multipart/form-data body with text fields and files (each `{ name, filename, data, type }`). */
export function multipartBody(
  fields: Record<string, string>,
  files: { name: string; filename: string; data: Buffer; type: string }[] = [],
) {
  const boundary = `----ark${base62(16)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    chunks.push(f.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function makePerson(org: TestOrg, more: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Pat', lastName: base62(6), email: `p-${base62(10).toLowerCase()}@example.org`, ...more },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}

/** The person invited by staff and signed in through the invitation link: the portal cookie's value. */
export async function signInByInvitation(t: TestApp, org: TestOrg, personId: string): Promise<string> {
  const inv = await org.req('POST', `/api/people/${personId}/portal-invitations`);
  assert.equal(inv.status, 201, inv.raw);
  const path = new URL(String(inv.body.sign_in_url)).pathname;
  const used = await portalReq(t, org, 'POST', path, { form: {} });
  assert.equal(used.status, 303, used.body);
  return cookieOf(used);
}

export function cookieOf(res: PortalRes): string {
  const set = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const c = set.find((s) => s.startsWith('ark_portal='));
  assert.ok(c, `a portal cookie is set: ${JSON.stringify(set)}`);
  return (c.split(';')[0] ?? '').slice('ark_portal='.length);
}

/** A foster (a person with a foster home) with one animal in care, signed in to the portal. */
export async function fosterInCare(t: TestApp, org: TestOrg, name = 'Pickle') {
  const personId = await makePerson(org);
  const home = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: personId, capacity: 3 } });
  assert.equal(home.status, 201, home.raw);
  const animal = await org.req('POST', '/api/v1/animals', {
    body: { name, species: 'cat', status: 'Available', intakeDate: '2026-01-02' },
  });
  assert.equal(animal.status, 201, animal.raw);
  const animalId = animal.body.id as string;
  const offer = await org.req('POST', `/api/animals/foster-homes/${home.body.foster_home.id}/assignments`, {
    body: { animal_id: animalId },
  });
  assert.equal(offer.status, 201, offer.raw);
  const started = await org.req('POST', `/api/animals/foster-assignments/${offer.body.id}/start`, { body: {} });
  assert.equal(started.status, 200, started.raw);
  const cookie = await signInByInvitation(t, org, personId);
  return { personId, animalId, homeId: home.body.foster_home.id as string, cookie };
}
