import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const FIELDS = [
  { key: 'first_name', label: 'First name', type: 'text', required: true, section: 'You' },
  { key: 'last_name', label: 'Last name', type: 'text', required: true, section: 'You' },
  { key: 'email', label: 'Email', type: 'email', required: true, section: 'You' },
  { key: 'phone', label: 'Phone', type: 'phone', section: 'You' },
  { key: 'home', label: 'Home', type: 'select', options: ['House', 'Flat'], required: true, section: 'Home', help_text: 'Where you live' },
  { key: 'pets', label: 'Pets', type: 'multiselect', options: ['Dogs', 'Cats'], section: 'Home' },
];
let n = 0;
async function form(org: TestOrg, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/forms', {
    body: {
      name: 'Adopt',
      slug: `adopt-${++n}`,
      purpose: 'adoption_application',
      fields: FIELDS,
      status: 'published',
      min_fill_seconds: 0,
      ...body,
    },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; slug: string; [k: string]: any };
}
async function start(org: TestOrg, slug: string): Promise<string> {
  const res = await org.req('GET', `/forms/${slug}/start`, { key: null });
  assert.equal(res.status, 200, res.raw);
  return res.body.started;
}
const ANSWERS = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', home: 'House', pets: ['Cats', 'Dogs'] };
async function submit(org: TestOrg, slug: string, answers: Record<string, unknown> = ANSWERS, extra: Record<string, unknown> = {}) {
  return org.req('POST', `/forms/${slug}/submit`, { key: null, body: { answers, started: await start(org, slug), ...extra } });
}
async function submission(org: TestOrg, answers: Record<string, unknown> = ANSWERS, formBody: Record<string, unknown> = {}) {
  const f = await form(org, formBody);
  const r = await submit(org, f.slug, answers);
  assert.equal(r.status, 201, r.raw);
  const list = await org.req('GET', `/api/forms/submissions?form_id=${f.id}`);
  return list.body.results[0] as { id: string; [k: string]: any };
}

test('builder: fields normalized, option rules, unique keys and slugs, purpose fixed once submitted, delete rules', async () => {
  const org = await makeOrg(t);
  const f = await form(org, { status: undefined });
  assert.equal(f.status, 'draft');
  assert.equal(f.min_fill_seconds, 0);
  assert.equal(f.max_per_address_per_hour, 5);
  assert.deepEqual(f.fields[3], {
    key: 'phone',
    label: 'Phone',
    type: 'phone',
    required: false,
    help_text: '',
    options: [],
    section: 'You',
  });
  assert.match(f.public_url, new RegExp(`/forms/${f.slug}$`));
  const bad = (fields: unknown) =>
    org.req('POST', '/api/forms', { body: { name: 'X', slug: `x-${++n}`, purpose: 'general_contact', fields } });
  assertErrorShape('/api/forms', await bad([{ key: 'a', label: 'A', type: 'select' }]), 422);
  assertErrorShape('/api/forms', await bad([{ key: 'a', label: 'A', type: 'text', options: ['x'] }]), 422);
  assertErrorShape(
    '/api/forms',
    await bad([
      { key: 'a', label: 'A', type: 'text' },
      { key: 'a', label: 'B', type: 'text' },
    ]),
    422,
  );
  assertErrorShape('/api/forms', await bad([{ key: 'A b', label: 'A', type: 'text' }]), 422);
  assertErrorShape('/api/forms', await bad([{ key: 'a', label: 'A', type: 'colour' }]), 422);
  assertErrorShape(
    '/api/forms',
    await org.req('POST', '/api/forms', { body: { name: 'X', slug: f.slug, purpose: 'general_contact' } }),
    422,
  );
  assertErrorShape('/api/forms', await org.req('POST', '/api/forms', { body: { name: 'X', slug: 'y', purpose: 'party' } }), 422);
  assertErrorShape('/api/forms', await org.req('POST', '/api/forms', { body: { name: 'X' } }), 400);
  // A draft is not public.
  assertErrorShape('/forms', await org.req('GET', `/forms/${f.slug}`, { key: null }), 404);
  const pub = await org.req('PATCH', `/api/forms/${f.id}`, { body: { status: 'published' } });
  assert.equal(pub.body.status, 'published');
  assert.equal((await submit(org, f.slug)).status, 201);
  assertErrorShape('/api/forms', await org.req('PATCH', `/api/forms/${f.id}`, { body: { purpose: 'general_contact' } }), 422);
  assertErrorShape('/api/forms', await org.req('DELETE', `/api/forms/${f.id}`), 422);
  const empty = await form(org);
  assert.equal((await org.req('DELETE', `/api/forms/${empty.id}`)).status, 204);
  const listed = await org.req('GET', '/api/forms?purpose=adoption_application');
  assert.deepEqual(
    listed.body.results.map((x: any) => x.id),
    [f.id],
  );
});

test('public page: HTML with sections, start token and honeypot, no key; closed forms 404', async () => {
  const org = await makeOrg(t);
  const f = await form(org);
  const page = await org.req('GET', `/forms/${f.slug}`, { key: null });
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(page.raw, /<h2>You<\/h2>/);
  assert.match(page.raw, /<h2>Home<\/h2>/);
  assert.match(page.raw, /name="started" value="\d{13}\.[A-Za-z0-9_-]{32}"/);
  assert.match(page.raw, /name="website"/);
  assert.match(page.raw, /Where you live/);
  await org.req('PATCH', `/api/forms/${f.id}`, { body: { status: 'closed' } });
  assertErrorShape('/forms', await org.req('GET', `/forms/${f.slug}`, { key: null }), 404);
  assertErrorShape(
    '/forms',
    await org.req('POST', `/forms/${f.slug}/submit`, { key: null, body: { answers: ANSWERS, started: 'x' } }),
    404,
  );
  // Another organization's address does not serve it.
  const other = await makeOrg(t);
  assertErrorShape('/forms', await other.req('GET', `/forms/${f.slug}`, { key: null }), 404);
});

test('submit: answers checked like custom fields, stored as sent (normalized); honeypot dropped silently', async () => {
  const org = await makeOrg(t, { country: 'US' });
  const f = await form(org);
  const ok = await submit(org, f.slug, { ...ANSWERS, phone: '(415) 555-0123' });
  assert.equal(ok.status, 201, ok.raw);
  assert.equal(ok.body.received, true);
  const miss = await submit(org, f.slug, { first_name: 'A' });
  assertErrorShape('/forms', miss, 422);
  const badVals = await submit(org, f.slug, { ...ANSWERS, email: 'nope', home: 'Castle', pets: ['Fish'], colour: 'red' });
  assertErrorShape('/forms', badVals, 422);
  const hp = await submit(org, f.slug, ANSWERS, { website: 'http://spam.example' });
  assert.equal(hp.status, 201);
  const list = await org.req('GET', `/api/forms/submissions?form_id=${f.id}`);
  assert.equal(list.body.results.length, 1, 'only the good one is stored');
  const s = list.body.results[0];
  assert.equal(s.answers.phone, '+14155550123');
  assert.deepEqual(s.answers.pets, ['Dogs', 'Cats']);
  assert.equal(s.status, 'new');
  assert.equal(s.form_purpose, 'adoption_application');
  assert.equal((await org.req('GET', `/api/forms/submissions/${s.id}`)).body.id, s.id);
});

test('spam: minimum fill time and start token checked; per-address limit per hour, also under concurrency', async () => {
  const org = await makeOrg(t);
  const slow = await form(org, { min_fill_seconds: 600 });
  assertErrorShape('/forms', await submit(org, slow.slug), 422);
  const f = await form(org, { max_per_address_per_hour: 2 });
  const forged = await org.req('POST', `/forms/${f.slug}/submit`, {
    key: null,
    body: { answers: ANSWERS, started: `${Date.now() - 60000}.${'A'.repeat(32)}` },
  });
  assertErrorShape('/forms', forged, 422);
  // A token of another form is refused.
  assertErrorShape(
    '/forms',
    await org.req('POST', `/forms/${f.slug}/submit`, { key: null, body: { answers: ANSWERS, started: await start(org, slow.slug) } }),
    422,
  );
  const tok = await start(org, f.slug);
  const results = await Promise.all(
    [1, 2, 3, 4].map(() => org.req('POST', `/forms/${f.slug}/submit`, { key: null, body: { answers: ANSWERS, started: tok } })),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, 429, 429]);
  const limited = results.find((r) => r.status === 429);
  assert.equal(limited?.headers['retry-after'], '3600');
  assert.equal(typeof limited?.body.error, 'string');
  assert.equal((await org.req('GET', `/api/forms/submissions?form_id=${f.id}`)).body.results.length, 2);
});

test('convert: new person with the purpose role; email match links; phone match 409 unless chosen or create_new; twice 409', async () => {
  const org = await makeOrg(t, { country: 'US' });
  const s = await submission(org);
  const c = await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} });
  assert.equal(c.status, 200, c.raw);
  assert.equal(c.body.created_person, true);
  assert.equal(c.body.matched_by, null);
  assert.equal(c.body.submission.status, 'converted');
  const p = await org.req('GET', `/api/v1/people/${c.body.person_id}`);
  assert.deepEqual([p.body.firstName, p.body.lastName, p.body.email, p.body.roles], ['Ada', 'Lovelace', 'ada@example.org', ['adopter']]);
  assertErrorShape('/api/forms', await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} }), 409);
  assertErrorShape('/api/forms', await org.req('POST', `/api/forms/submissions/${s.id}/dismiss`), 409);

  // Same email (other case): linked to that person, no new one.
  const s2 = await submission(org, { ...ANSWERS, email: 'ADA@example.org' }, { purpose: 'volunteer_application' });
  const m = await org.req('GET', `/api/forms/submissions/${s2.id}/matches`);
  assert.deepEqual(
    m.body.results.map((x: any) => [x.person_id, x.reasons]),
    [[c.body.person_id, ['same_email']]],
  );
  const c2 = await org.req('POST', `/api/forms/submissions/${s2.id}/convert`, { body: {} });
  assert.deepEqual([c2.body.person_id, c2.body.created_person, c2.body.matched_by], [c.body.person_id, false, 'email']);
  assert.deepEqual((await org.req('GET', `/api/v1/people/${c.body.person_id}`)).body.roles.sort(), ['adopter', 'volunteer']);

  // Same phone, different email: 409 naming the person; create_new or person_id resolve it.
  const withPhone = await person(org, { phone: '+14155550199' });
  const s3 = await submission(org, { ...ANSWERS, email: 'other@example.org', phone: '415-555-0199' });
  const clash = await org.req('POST', `/api/forms/submissions/${s3.id}/convert`, { body: {} });
  assertErrorShape('/api/forms', clash, 409);
  assert.match(clash.body.error, new RegExp(withPhone));
  const chosen = await org.req('POST', `/api/forms/submissions/${s3.id}/convert`, { body: { person_id: withPhone } });
  assert.deepEqual([chosen.body.person_id, chosen.body.matched_by], [withPhone, 'chosen']);
  const s4 = await submission(org, { ...ANSWERS, email: 'third@example.org', phone: '415-555-0199' });
  const fresh = await org.req('POST', `/api/forms/submissions/${s4.id}/convert`, { body: { create_new: true } });
  assert.equal(fresh.body.created_person, true);
  assertErrorShape(
    '/api/forms',
    await org.req('POST', `/api/forms/submissions/${s4.id}/convert`, { body: { person_id: 'per_none' } }),
    409,
  );
  const s5 = await submission(org);
  assertErrorShape(
    '/api/forms',
    await org.req('POST', `/api/forms/submissions/${s5.id}/convert`, { body: { person_id: 'per_none' } }),
    422,
  );
  // Needs write on People too.
  const formsOnly = await org.keyWith({ forms: 'write' });
  assertErrorShape('/api/forms', await org.req('POST', `/api/forms/submissions/${s5.id}/convert`, { key: formsOnly, body: {} }), 403);
  // Dismiss.
  const d = await org.req('POST', `/api/forms/submissions/${s5.id}/dismiss`);
  assert.equal(d.body.status, 'dismissed');
  assert.deepEqual(
    (await org.req('GET', '/api/forms/submissions?status=dismissed')).body.results.map((x: any) => x.id),
    [s5.id],
  );
});

test('convert: a submission without an email cannot make a new person (422)', async () => {
  const org = await makeOrg(t);
  const f = await form(org, { purpose: 'general_contact', fields: [{ key: 'first_name', label: 'Name', type: 'text' }] });
  assert.equal((await submit(org, f.slug, { first_name: 'Zed' })).status, 201);
  const s = (await org.req('GET', `/api/forms/submissions?form_id=${f.id}`)).body.results[0];
  assertErrorShape('/api/forms', await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} }), 422);
});

test('template fill with related_entity_type form_submission fills the person it became', async () => {
  const org = await makeOrg(t);
  const s = await submission(org);
  const tpl = await org.req('POST', '/api/communications/templates', {
    body: {
      key: `thanks_${++n}`,
      name: 'Thanks',
      subject_template: 'Hi {{first_name}}',
      body_template_blocks: [{ type: 'p', runs: [{ text: 'Dear {{full_name}}' }] }],
      status: 'active',
    },
  });
  assert.equal(tpl.status, 201, tpl.raw);
  const before = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, {
    body: { related_entity_type: 'form_submission', related_entity_id: s.id },
  });
  assert.equal(before.status, 200, before.raw);
  assert.deepEqual(before.body.unfilled, ['first_name', 'full_name']);
  await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} });
  const filled = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, {
    body: { related_entity_type: 'form_submission', related_entity_id: s.id },
  });
  assert.equal(filled.body.subject, 'Hi Ada');
  assert.deepEqual(filled.body.unfilled, []);
  assertErrorShape(
    '/api/communications',
    await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, {
      body: { related_entity_type: 'form_submission', related_entity_id: 'fsb_none' },
    }),
    404,
  );
});

test('adoption hook: a registered hook runs in the conversion transaction and its application id is kept', async () => {
  const { adoptionSubmissionHook } = await import('./public.ts');
  const { handlersOf, hooksFor } = await import('../../platform/hooks.ts');
  // Stands in for the adoptions module's handler while it runs, then gives it back.
  const saved = handlersOf(adoptionSubmissionHook).slice();
  const seen: string[] = [];
  hooksFor('adoptions').on(adoptionSubmissionHook, async (_q, s) => {
    seen.push(s.personId);
    return s.answers.home === 'Flat' ? null : `app_${s.submissionId}`;
  });
  try {
    const org = await makeOrg(t);
    const s = await submission(org);
    const c = await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} });
    assert.equal(c.body.submission.application_id, `app_${s.id}`);
    assert.deepEqual(seen, [c.body.person_id]);
    const g = await submission(org, { ...ANSWERS, email: 'g@example.org' }, { purpose: 'general_contact' });
    await org.req('POST', `/api/forms/submissions/${g.id}/convert`, { body: {} });
    assert.equal(seen.length, 1, 'only adoption application forms');
  } finally {
    for (const h of saved) hooksFor(h.module).on(adoptionSubmissionHook, h.fn);
  }
});

securitySuite('forms', () => t, [
  { method: 'GET', path: () => '/api/forms', area: 'forms', level: 'read', seed: async (o) => (await form(o)).id },
  { method: 'GET', path: async (o) => `/api/forms/${(await form(o)).id}`, area: 'forms', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/forms',
    body: { name: 'F', slug: 'sec-form', purpose: 'general_contact' },
    area: 'forms',
    level: 'admin',
  },
  { method: 'PATCH', path: async (o) => `/api/forms/${(await form(o)).id}`, body: { name: 'G' }, area: 'forms', level: 'admin' },
  { method: 'DELETE', path: async (o) => `/api/forms/${(await form(o)).id}`, area: 'forms', level: 'admin' },
  { method: 'GET', path: () => '/api/forms/submissions', area: 'forms', level: 'read', seed: async (o) => (await submission(o)).id },
  { method: 'GET', path: async (o) => `/api/forms/submissions/${(await submission(o)).id}`, area: 'forms', level: 'read' },
  {
    method: 'GET',
    path: async (o) => `/api/forms/submissions/${(await submission(o)).id}/matches`,
    area: 'forms',
    level: 'read',
    also: [{ area: 'people', level: 'read' }],
  },
  {
    method: 'POST',
    path: async (o) => `/api/forms/submissions/${(await submission(o)).id}/convert`,
    body: {},
    area: 'forms',
    level: 'write',
    also: [{ area: 'people', level: 'write' }],
  },
  { method: 'POST', path: async (o) => `/api/forms/submissions/${(await submission(o)).id}/dismiss`, area: 'forms', level: 'write' },
]);

test('registry: a foster application whose person another organization flagged shows the flag on conversion; others none', async () => {
  const raiser = await makeOrg(t, { country: 'US' });
  const email = `flagged-${process.pid}-${Date.now()}@example.org`;
  const flagged = await raiser.req('POST', '/api/v1/people', { body: { firstName: 'Rex', lastName: 'Flagged', email } });
  assert.equal(flagged.status, 201, flagged.raw);
  const f = await raiser.req('POST', '/api/registry/flags', {
    body: { person_id: flagged.body.id, category: 'do_not_adopt', evidence: 'returned three dogs in poor condition' },
  });
  assert.equal(f.status, 201, f.raw);

  const org = await makeOrg(t, { country: 'US' });
  const s = await submission(org, { ...ANSWERS, email: email.toUpperCase() }, { purpose: 'foster_application' });
  const c = await org.req('POST', `/api/forms/submissions/${s.id}/convert`, { body: {} });
  assert.equal(c.status, 200, c.raw);
  assert.equal(c.body.registry_flags.length, 1);
  assert.equal(c.body.registry_flags[0].flag_id, f.body.id);
  assert.equal(c.body.registry_flags[0].category, 'do_not_adopt');
  assert.equal(c.body.registry_flags[0].raised_by_you, false);
  assert.deepEqual(c.body.registry_flags[0].matched_on, ['email']);
  assert.equal(JSON.stringify(c.body).includes('returned three dogs'), false, 'the evidence stays with the raising organization');

  const clean = await submission(org, { ...ANSWERS, email: 'someone.else@example.org' }, { purpose: 'foster_application' });
  const c2 = await org.req('POST', `/api/forms/submissions/${clean.id}/convert`, { body: {} });
  assert.deepEqual(c2.body.registry_flags, []);
  // The adoption application of the flagged person in the other organization carries the same warning.
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Pip', species: 'dog', status: 'Available', intakeDate: '2026-01-02' },
  });
  assert.equal(a.status, 201, a.raw);
  const app = await org.req('POST', '/api/animals/adoption-applications', {
    body: { person_id: c.body.person_id, animal_ids: [a.body.id] },
  });
  assert.equal(app.status, 201, app.raw);
  assert.deepEqual(
    app.body.registry_flags.map((x: { flag_id: string }) => x.flag_id),
    [f.body.id],
  );
});

/** Posts the HTML page's own form (what a browser sends), with the page's start token. */
async function postPage(org: TestOrg, slug: string, fields: [string, string][]) {
  const page = await org.req('GET', `/forms/${slug}`, { key: null });
  const started = /name="started" value="([^"]+)"/.exec(page.raw)?.[1] ?? '';
  const body = new URLSearchParams([['started', started], ['website', ''], ...fields]).toString();
  return org.req('POST', `/forms/${slug}`, { key: null, rawBody: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}
const GOOD: [string, string][] = [
  ['a.first_name', 'Ada'],
  ['a.last_name', 'Lovelace'],
  ['a.email', 'ada@example.org'],
  ['a.home', 'House'],
  ['a.pets', 'Dogs'],
  ['a.pets', 'Cats'],
];

test('HTML page: site layout, radios and checkboxes, plain words, typed answers kept; national phones stored E.164', async () => {
  for (const [country, local, e164, example] of [
    ['US', '617 555 0100', '+16175550100', '617 555 0100'],
    ['GB', '020 7946 0958', '+442079460958', '020 7946 0958'],
  ] as const) {
    const org = await makeOrg(t, { country });
    const f = await form(org);
    const page = await org.req('GET', `/forms/${f.slug}`, { key: null });
    assert.equal(page.status, 200);
    // The site's own layout: its header (the organization's name) and stylesheet; the form's own class.
    assert.match(page.raw, /<header class="top">/);
    assert.match(page.raw, /<footer>/);
    assert.match(page.raw, /class="pf"/);
    assert.doesNotMatch(page.raw, /<script>/, 'no script runs on the page');
    assert.doesNotMatch(page.raw, /<select[^>]*multiple/, 'never a multi-select box');
    assert.doesNotMatch(page.raw, /<select/);
    assert.match(page.raw, /<input type="radio" name="a\.home" value="House"/);
    assert.match(page.raw, /<input type="checkbox" name="a\.pets" value="Dogs"/);
    assert.match(page.raw, /<legend class="lb">Home/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /script-src/);

    // A wrong phone and a missing name: the page again (422) with the words a person reads, never a field key.
    const bad = await postPage(org, f.slug, [...GOOD.filter(([k]) => k !== 'a.first_name'), ['a.phone', '555']]);
    assert.equal(bad.status, 422, bad.raw);
    assert.match(String(bad.headers['content-type']), /text\/html/);
    assert.ok(bad.raw.includes(`Please enter a phone number we can call, e.g. ${example}.`), bad.raw);
    assert.match(bad.raw, /Please fill this in\./);
    assert.match(bad.raw, /Please check the 2 answers marked below\./);
    assert.doesNotMatch(bad.raw, /answers\.|is required|must be a/);
    // What was typed stays: the phone as typed, the email, the ticked options.
    assert.match(bad.raw, /name="a\.phone" value="555"/);
    assert.match(bad.raw, /value="ada@example\.org"/);
    assert.match(bad.raw, /value="House"[^>]*checked/);
    assert.match(bad.raw, /value="Cats"[^>]*checked/);
    assert.match(bad.raw, /id="f_phone"[^>]*aria-invalid="true"/);
    assert.equal((await org.req('GET', `/api/forms/submissions?form_id=${f.id}`)).body.results.length, 0, 'nothing stored');

    // Fixed: the national format is accepted and stored in E.164.
    const ok = await postPage(org, f.slug, [...GOOD, ['a.phone', local]]);
    assert.equal(ok.status, 303, ok.raw);
    assert.equal(ok.headers.location, `/forms/${f.slug}/thanks`);
    const thanks = await org.req('GET', `/forms/${f.slug}/thanks`, { key: null });
    assert.match(thanks.raw, /Thank you/);
    assert.match(thanks.raw, /<header class="top">/);
    const stored = (await org.req('GET', `/api/forms/submissions?form_id=${f.id}`)).body.results;
    assert.equal(stored.length, 1);
    assert.equal(stored[0].answers.phone, e164);
    assert.deepEqual(stored[0].answers.pets, ['Dogs', 'Cats']);
    // The JSON submit takes the same national format and keeps its own error shape.
    const json = await submit(org, f.slug, { ...ANSWERS, phone: local });
    assert.equal(json.status, 201, json.raw);
    const jsonBad = await submit(org, f.slug, { ...ANSWERS, phone: '555' });
    assertErrorShape('/forms', jsonBad, 422);
  }
});
