import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { testApp, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite } from '../../../test/security.ts';
import { animal, application, person } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const ok = (r: { status: number; raw: string }, status = 201) => assert.equal(r.status, status, r.raw);

async function approvedApp(org: TestOrg): Promise<string> {
  return application(org, await person(org), [await animal(org)]);
}
async function adoption(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const r = await org.req('POST', `/api/animals/adoption-applications/${await approvedApp(org)}/finalize`, { body });
  ok(r);
  return r.body.results[0].id as string;
}
async function contractTemplate(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/animals/contract-templates', {
    body: { name: 'C', title: 'Contract', body: 'Adopting {{animal_name}}.' },
  });
  ok(r);
  return r.body.id as string;
}
async function contract(org: TestOrg, signed = false): Promise<string> {
  const r = await org.req('POST', '/api/animals/signed-contracts', {
    body: { application_id: await approvedApp(org), template_id: await contractTemplate(org) },
  });
  ok(r);
  if (signed) {
    const s = await request(t, org.host, 'POST', new URL(r.body.signing_url).pathname, {
      rawBody: `name=Ann&consent=yes&document_sha256=${r.body.document_sha256}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    ok(s, 200);
  }
  return r.body.id as string;
}
async function stage(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/animals/application-stages', {
    body: { name: `Stage ${Math.random().toString(36).slice(2, 8)}`, kind: 'open' },
  });
  ok(r);
  return r.body.id as string;
}
async function schedule(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/animals/fee-schedules', { body: { name: 'S', rules: [{ name: 'Any', amount_minor: 100 }] } });
  ok(r);
  return r.body.id as string;
}
async function card(org: TestOrg): Promise<string> {
  const r = await org.req('POST', '/api/animals/cage-card-templates', { body: { name: 'K' } });
  ok(r);
  return r.body.id as string;
}
const READ = { area: 'animals' as const, level: 'read' as const };
const WRITE = { area: 'animals' as const, level: 'write' as const };
const ADMIN = { area: 'animals' as const, level: 'admin' as const };
const RANGE = '?from=2000-01-01&to=2999-12-31';

securitySuite('adoptions', () => t, [
  { method: 'GET', path: () => '/api/animals/application-stages', ...READ, seed: stage },
  { method: 'POST', path: () => '/api/animals/application-stages', body: { name: 'Interview', kind: 'open' }, ...ADMIN, seed: stage },
  { method: 'PATCH', path: async (o) => `/api/animals/application-stages/${await stage(o)}`, body: { sort_order: 5 }, ...ADMIN },
  { method: 'DELETE', path: async (o) => `/api/animals/application-stages/${await stage(o)}`, ...ADMIN },

  { method: 'GET', path: () => '/api/animals/adoption-applications', ...READ, seed: approvedApp },
  {
    method: 'POST',
    path: () => '/api/animals/adoption-applications',
    body: { applicant: { first_name: 'Sec', last_name: 'Test', email: 'sec.test@example.org' }, animal_ids: ['ani_placeholder'] },
    ...WRITE,
    seed: approvedApp,
  },
  { method: 'GET', path: async (o) => `/api/animals/adoption-applications/${await approvedApp(o)}`, ...READ },
  { method: 'PATCH', path: async (o) => `/api/animals/adoption-applications/${await approvedApp(o)}`, body: { notes: 'called' }, ...WRITE },
  { method: 'POST', path: async (o) => `/api/animals/adoption-applications/${await approvedApp(o)}/finalize`, body: {}, ...WRITE },

  { method: 'GET', path: () => '/api/animals/adoptions', ...READ, seed: (o) => adoption(o) },
  { method: 'GET', path: async (o) => `/api/animals/adoptions/${await adoption(o)}`, ...READ },
  { method: 'PATCH', path: async (o) => `/api/animals/adoptions/${await adoption(o)}`, body: {}, ...WRITE },
  {
    method: 'POST',
    path: async (o) => `/api/animals/adoptions/${await adoption(o, { trial: true, trial_ends_on: '2999-01-01' })}/complete`,
    body: {},
    ...WRITE,
  },
  { method: 'POST', path: async (o) => `/api/animals/adoptions/${await adoption(o)}/return`, body: { reason: 'moved' }, ...WRITE },
  { method: 'POST', path: async (o) => `/api/animals/adoptions/${await adoption(o)}/donations`, body: { amount_minor: 500 }, ...WRITE },
  {
    method: 'GET',
    path: () => '/api/animals/adoption-settings',
    ...READ,
    singleton: true,
    seed: async (o) => {
      const mark = `ferret${o.slug.replace(/[^a-z0-9]/g, '')}`;
      ok(await o.req('PATCH', '/api/animals/adoption-settings', { body: { return_window_days: { [mark]: 3 } } }), 200);
      return mark;
    },
  },
  { method: 'PATCH', path: () => '/api/animals/adoption-settings', body: { return_window_days: { dog: 14 } }, ...ADMIN },

  { method: 'GET', path: () => '/api/animals/fee-schedules', ...READ, seed: schedule },
  { method: 'POST', path: () => '/api/animals/fee-schedules', body: { name: 'New', active: false, rules: [] }, ...ADMIN, seed: schedule },
  { method: 'GET', path: async (o) => `/api/animals/fee-schedules/${await schedule(o)}`, ...READ },
  { method: 'PATCH', path: async (o) => `/api/animals/fee-schedules/${await schedule(o)}`, body: { name: 'Renamed' }, ...ADMIN },
  { method: 'DELETE', path: async (o) => `/api/animals/fee-schedules/${await schedule(o)}`, ...ADMIN },
  { method: 'GET', path: async (o) => `/api/animals/${await animal(o)}/adoption-fee`, ...READ },

  { method: 'GET', path: () => '/api/animals/contract-templates', ...READ, seed: contractTemplate },
  { method: 'GET', path: () => '/api/animals/contract-templates/merge-fields', ...READ, shared: true },
  {
    method: 'POST',
    path: () => '/api/animals/contract-templates',
    body: { name: 'N', title: 'T', body: 'B {{org_name}}' },
    ...ADMIN,
    seed: contractTemplate,
  },
  { method: 'GET', path: async (o) => `/api/animals/contract-templates/${await contractTemplate(o)}`, ...READ },
  {
    method: 'PATCH',
    path: async (o) => `/api/animals/contract-templates/${await contractTemplate(o)}`,
    body: { body: 'Changed.' },
    ...ADMIN,
  },
  { method: 'GET', path: async (o) => `/api/animals/contract-templates/${await contractTemplate(o)}/versions`, ...READ },

  { method: 'GET', path: () => '/api/animals/signed-contracts', ...READ, seed: (o) => contract(o) },
  {
    method: 'POST',
    path: () => '/api/animals/signed-contracts',
    body: { application_id: 'apl_placeholder', template_id: 'ctt_placeholder' },
    ...WRITE,
    seed: (o) => contract(o),
  },
  { method: 'GET', path: async (o) => `/api/animals/signed-contracts/${await contract(o)}`, ...READ },
  { method: 'DELETE', path: async (o) => `/api/animals/signed-contracts/${await contract(o)}`, ...WRITE },
  { method: 'POST', path: async (o) => `/api/animals/signed-contracts/${await contract(o)}/resend`, body: {}, ...WRITE },
  { method: 'GET', path: async (o) => `/api/animals/signed-contracts/${await contract(o, true)}/pdf`, ...READ },

  { method: 'GET', path: () => `/api/animals/reconciliations${RANGE}`, ...READ, seed: (o) => adoption(o) },
  { method: 'GET', path: () => `/api/animals/reconciliations/export${RANGE}`, ...READ, seed: (o) => adoption(o) },

  { method: 'GET', path: () => '/api/animals/cage-card-templates', ...READ, seed: card },
  { method: 'POST', path: () => '/api/animals/cage-card-templates', body: { name: 'Small', size: 'index_card' }, ...ADMIN, seed: card },
  { method: 'GET', path: async (o) => `/api/animals/cage-card-templates/${await card(o)}`, ...READ },
  { method: 'PATCH', path: async (o) => `/api/animals/cage-card-templates/${await card(o)}`, body: { show_qr: false }, ...ADMIN },
  { method: 'DELETE', path: async (o) => `/api/animals/cage-card-templates/${await card(o)}`, ...ADMIN },
  { method: 'GET', path: async (o) => `/api/animals/cage-card-templates/${await card(o)}/cards?animal_id=${await animal(o)}`, ...READ },
]);
