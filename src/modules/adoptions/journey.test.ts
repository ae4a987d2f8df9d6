import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, request, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animal, application, person, stageId } from './fixtures.test-helpers.ts';

let t: TestApp;
let mailing: TestApp;
before(async () => {
  t = await testApp();
  // Sending set up (to a port nothing answers: messages are queued, which is what a contract records).
  mailing = await testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=journey' });
});
after(async () => {
  await t.close();
  await mailing.close();
});

const ok = (r: { status: number; raw: string }, status = 201) => assert.equal(r.status, status, r.raw);
let n = 0;

/** A published adoption application form (sent at once: no minimum fill time) with an `animal_name` question. */
async function adoptionForm(org: TestOrg, purpose = 'adoption_application'): Promise<string> {
  const slug = `apply-${++n}`;
  const r = await org.req('POST', '/api/forms', {
    body: {
      name: 'Adopt',
      slug,
      purpose,
      status: 'published',
      min_fill_seconds: 0,
      fields: [
        { key: 'first_name', label: 'First name', type: 'text', required: true },
        { key: 'last_name', label: 'Last name', type: 'text', required: true },
        { key: 'email', label: 'Email', type: 'email', required: true },
        { key: 'animal_name', label: 'Which animal?', type: 'text' },
      ],
    },
  });
  ok(r);
  return slug;
}
async function send(org: TestOrg, slug: string, answers: Record<string, unknown>, animalIds?: string[]) {
  const s = await request(t, org.host, 'GET', `/forms/${slug}/start`, { key: null });
  ok(s, 200);
  return request(t, org.host, 'POST', `/forms/${slug}/submit`, {
    key: null,
    body: { answers, started: s.body.started, ...(animalIds ? { animal_ids: animalIds } : {}) },
  });
}
const count = async (org: TestOrg, url: string) => {
  const r = await org.req('GET', url);
  ok(r, 200);
  return (r.body.results as unknown[]).length;
};

test('public apply: the animal page links to the form with the animal chosen; the submission becomes an application at once', async () => {
  const org = await makeOrg(t);
  const slug = await adoptionForm(org);
  const dog = await animal(org, { publicName: 'Biscuit', isPublic: true });
  const hidden = await animal(org, { publicName: 'Secret', isPublic: false });

  // The public animal page's apply link carries the animal; the form page names it and does not ask for its name.
  const pageRes = await request(t, org.host, 'GET', `/animals/${dog}/biscuit`, { key: null });
  ok(pageRes, 200);
  assert.match(pageRes.raw, new RegExp(`href="/forms/${slug}\\?animal=${dog}"`));
  const form = await request(t, org.host, 'GET', `/forms/${slug}?animal=${dog}`, { key: null });
  ok(form, 200);
  assert.match(form.raw, /Applying for <strong>Biscuit<\/strong>/);
  assert.match(form.raw, new RegExp(`name="animal_ids" data-kind="animal" value="${dog}"`));
  assert.doesNotMatch(form.raw, /Which animal\?/);
  const secret = await request(t, org.host, 'GET', `/forms/${slug}?animal=${hidden}`, { key: null });
  assert.doesNotMatch(secret.raw, /Applying for/);
  const start = await request(t, org.host, 'GET', `/forms/${slug}/start?animal=${dog}`, { key: null });
  assert.deepEqual(start.body.animals, [{ id: dog, name: 'Biscuit' }]);

  // An applicant already on file (same email, other case) is linked, not duplicated.
  const known = await org.req('POST', '/api/v1/people', { body: { firstName: 'Kim', lastName: 'Known', email: 'kim.known@example.org' } });
  ok(known);
  const sent = await send(org, slug, { first_name: 'Kim', last_name: 'Known', email: 'KIM.known@example.org' }, [dog]);
  ok(sent);
  const apps = await org.req('GET', `/api/animals/adoption-applications?animal_id=${dog}`);
  ok(apps, 200);
  assert.equal(apps.body.results.length, 1);
  const a = apps.body.results[0];
  assert.equal(a.person_id, known.body.id);
  assert.equal(a.stage, 'More info needed');
  assert.deepEqual(a.animals, [{ id: dog, name: (await org.req('GET', `/api/v1/animals/${dog}`)).body.name, species: 'dog' }]);
  assert.ok(a.submission_id);
  const sub = await org.req('GET', `/api/forms/submissions/${a.submission_id}`);
  ok(sub, 200);
  assert.equal(sub.body.status, 'converted');
  assert.equal(sub.body.application_id, a.id);
  assert.equal(sub.body.person_id, known.body.id);
  assert.deepEqual(sub.body.animal_ids, [dog]);
  assert.equal(sub.body.answers.animal_name, 'Biscuit', 'the name is filled from the chosen animal');
  const kim = await org.req('GET', `/api/v1/people/${known.body.id}`);
  assert.ok(kim.body.roles.includes('adopter'));

  // A new applicant becomes a person.
  ok(await send(org, slug, { first_name: 'Nia', last_name: 'New', email: 'nia.new@example.org' }, [dog]));
  const both = await org.req('GET', `/api/animals/adoption-applications?animal_id=${dog}`);
  assert.equal(both.body.results.length, 2);
  const nia = both.body.results.find((x: { applicant_email: string }) => x.applicant_email === 'nia.new@example.org');
  assert.ok(nia, 'the new applicant is a person on file');

  // Without chosen animals the submission waits for staff, as before.
  ok(await send(org, slug, { first_name: 'Ola', last_name: 'Later', email: 'ola@example.org' }));
  const waiting = await org.req('GET', '/api/forms/submissions?status=new');
  assert.equal(waiting.body.results.length, 1);
});

test('public apply, bad input: an animal not on the public site, or animals on another kind of form: 422 and nothing stored', async () => {
  const org = await makeOrg(t);
  const slug = await adoptionForm(org);
  const contact = await adoptionForm(org, 'general_contact');
  const hidden = await animal(org, { isPublic: false });
  const shown = await animal(org, { isPublic: true });
  const other = await makeOrg(t);
  const foreign = await animal(other, { isPublic: true });
  const answers = { first_name: 'Bo', last_name: 'Bad', email: 'bo@example.org' };
  for (const ids of [[hidden], [foreign], ['ani_nothing']]) {
    const r = await send(org, slug, answers, ids);
    assertErrorShape(`/forms/${slug}/submit`, r, 422);
    assert.match(r.body.error, /public site/);
  }
  assertErrorShape(`/forms/${contact}/submit`, await send(org, contact, answers, [shown]), 422);
  assert.equal(await count(org, '/api/forms/submissions'), 0);
  assert.equal(await count(org, '/api/animals/adoption-applications'), 0);
  assert.equal((await org.req('GET', '/api/v1/people?q=bo@example.org')).body.data.length, 0);
});

test('staff convert: the application gets the animal named in the answers (one public animal of that name)', async () => {
  const org = await makeOrg(t);
  const slug = await adoptionForm(org);
  const dog = await animal(org, { publicName: 'Pepper', isPublic: true });
  ok(await send(org, slug, { first_name: 'Ren', last_name: 'Walk', email: 'ren@example.org', animal_name: 'pepper' }));
  const sub = (await org.req('GET', '/api/forms/submissions?status=new')).body.results[0];
  const c = await org.req('POST', `/api/forms/submissions/${sub.id}/convert`, { body: {} });
  ok(c, 200);
  assert.ok(c.body.submission.application_id);
  const a = await org.req('GET', `/api/animals/adoption-applications/${c.body.submission.application_id}`);
  assert.deepEqual(a.body.animal_ids, [dog]);
  assert.equal(a.body.submission_id, sub.id);
});

test('finalizing moves the application to the adopted stage (no longer Approved)', async () => {
  const org = await makeOrg(t);
  const dog = await animal(org);
  const appId = await application(org, await person(org), [dog]);
  const other = await application(org, await person(org), [dog], false);
  ok(await org.req('POST', `/api/animals/adoption-applications/${appId}/finalize`, { body: {} }));
  const a = await org.req('GET', `/api/animals/adoption-applications/${appId}`);
  assert.equal(a.body.stage, 'Animal adopted');
  assert.equal(a.body.stage_kind, 'closed');
  assert.equal(a.body.decision, 'adopted');
  const o = await org.req('GET', `/api/animals/adoption-applications/${other}`);
  assert.equal(o.body.decision, 'closed');
  // A trial keeps its stage until it completes.
  const cat = await animal(org, { species: 'cat' });
  const trialApp = await application(org, await person(org), [cat]);
  const trial = await org.req('POST', `/api/animals/adoption-applications/${trialApp}/finalize`, {
    body: { trial: true, trial_ends_on: '2999-01-01' },
  });
  ok(trial);
  assert.equal((await org.req('GET', `/api/animals/adoption-applications/${trialApp}`)).body.stage, 'Approved');
  ok(await org.req('POST', `/api/animals/adoptions/${trial.body.results[0].id}/complete`, { body: {} }), 200);
  assert.equal((await org.req('GET', `/api/animals/adoption-applications/${trialApp}`)).body.stage, 'Animal adopted');
  assert.ok(await stageId(org, 'Animal adopted'));
});

test('fee payments: an exact ledger entry linked to the adoption; bad input changes nothing', async () => {
  const org = await makeOrg(t);
  const dog = await animal(org);
  const adopter = await person(org);
  const appId = await application(org, adopter, [dog]);
  const fin = await org.req('POST', `/api/animals/adoption-applications/${appId}/finalize`, {
    body: { fee_minor: 12550, fee_override_reason: 'agreed' },
  });
  ok(fin);
  const adoptionId = fin.body.results[0].id as string;
  assert.equal(fin.body.results[0].fee_paid_minor, 0);
  const url = `/api/animals/adoptions/${adoptionId}/fee-payments`;

  const bad = [
    { amount_minor: 0, payment_method: 'cash' },
    { amount_minor: 12.5, payment_method: 'cash' },
    { amount_minor: 100, payment_method: 'bitcoin' },
    { amount_minor: 100 },
    { amount_minor: 100, payment_method: 'cash', date: '2999-01-01' },
    { amount_minor: 100, payment_method: 'cash', date: '2026-02-30' },
    { amount_minor: 100, payment_method: 'cash', surprise: 1 },
  ];
  for (const body of bad) {
    const r = await org.req('POST', url, { body });
    assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(body)}: ${r.status} ${r.raw}`);
    assertErrorShape(url, r, r.status);
  }
  assertErrorShape(
    url,
    await org.req('POST', '/api/animals/adoptions/adp_none/fee-payments', { body: { amount_minor: 1, payment_method: 'cash' } }),
    404,
  );
  assert.equal((await org.req('GET', `/api/v1/donations?donorId=${adopter}`)).body.data.length, 0);
  assert.equal((await org.req('GET', `/api/animals/adoptions/${adoptionId}`)).body.donation_ids.length, 0);

  const paid = await org.req('POST', url, {
    body: { amount_minor: 12550, payment_method: 'card', date: '2026-01-15', notes: 'receipt 42' },
  });
  ok(paid);
  assert.equal(paid.body.adoption.fee_paid_minor, 12550);
  assert.deepEqual(paid.body.adoption.donation_ids, [paid.body.donation_id]);
  const d = await org.req('GET', `/api/v1/donations/${paid.body.donation_id}`);
  ok(d, 200);
  assert.equal(d.body.amount, 125.5);
  assert.equal(d.body.type, 'post-adoption');
  assert.equal(d.body.paymentMethod, 'card');
  assert.equal(d.body.date, '2026-01-15');
  assert.equal(d.body.donorId, adopter);
  assert.equal(d.body.animalId, dog);
  assert.match(d.body.notes, /Adoption fee.*receipt 42/);
  // The reconciliation counts it as received.
  const rec = await org.req('GET', '/api/animals/reconciliations?from=2000-01-01&to=2999-12-31');
  const row = rec.body.results.find((r: { adoption_id: string }) => r.adoption_id === adoptionId);
  assert.equal(row.received_minor, 12550);
  assert.equal(row.difference_minor, 0);

  // Read-only keys cannot record money.
  assert.equal((await org.req('POST', url, { key: org.keys.readOnly, body: { amount_minor: 1, payment_method: 'cash' } })).status, 403);
});

test('people similar: same email, same phone (as typed locally), similar name; by person, not themself', async () => {
  const org = await makeOrg(t);
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Jonathan', lastName: 'Smithers', email: 'jon.smithers@example.org', phone: '+14155550199' },
  });
  ok(p);
  const q = (s: string) => org.req('GET', `/api/people/similar?${s}`);
  const byEmail = await q('email=JON.SMITHERS@example.org&first_name=X');
  ok(byEmail, 200);
  assert.deepEqual(byEmail.body.results[0].reasons, ['same_email']);
  assert.equal(byEmail.body.results[0].id, p.body.id);
  const byPhone = await q(`phone=${encodeURIComponent('(415) 555-0199')}`);
  assert.deepEqual(byPhone.body.results[0]?.reasons, ['same_phone']);
  const byName = await q('first_name=Jonathon&last_name=Smithers');
  assert.deepEqual(byName.body.results[0]?.reasons, ['similar_name']);
  assert.ok(byName.body.results[0].name_similarity >= 0.6);
  assert.equal((await q('first_name=Zed&last_name=Quux&email=zed@example.org')).body.results.length, 0);
  assert.equal((await q('')).body.results.length, 0);
  const twin = await org.req('POST', '/api/v1/people', { body: { firstName: 'Jonathan', lastName: 'Smithers', email: 'js2@example.org' } });
  ok(twin);
  const mine = await q(`person_id=${twin.body.id}`);
  assert.deepEqual(
    mine.body.results.map((r: { id: string }) => r.id),
    [p.body.id],
  );
  assertErrorShape('/api/people/similar', await q(`person_id=${twin.body.id}&email=a@b.org`), 422);
  assertErrorShape('/api/people/similar', await q('surprise=1'), 422);
  assertErrorShape('/api/people/similar', await q('person_id=per_nobody00000000000000'), 404);
});

test('a contract emailed records to whom and when, and the message that carried it', async () => {
  const org = await makeOrg(mailing, { timeZone: 'America/Chicago' });
  const appId = await application(org, await person(org), [await animal(org)]);
  const tpl = await org.req('POST', '/api/animals/contract-templates', {
    body: { name: 'Std', title: 'Contract', body: 'I adopt {{animal_name}}.' },
  });
  ok(tpl);
  const sent = await org.req('POST', '/api/animals/signed-contracts', { body: { application_id: appId, template_id: tpl.body.id } });
  ok(sent);
  assert.equal(sent.body.email.sent, true, JSON.stringify(sent.body.email));
  const app = (await org.req('GET', `/api/animals/adoption-applications/${appId}`)).body;
  assert.equal(sent.body.sent_to, app.applicant_email);
  assert.ok(sent.body.emailed_at, 'when it was emailed');
  assert.equal(sent.body.email_message_id, sent.body.email.message_id);
  const read = (await org.req('GET', `/api/animals/signed-contracts/${sent.body.id}`)).body;
  assert.deepEqual([read.sent_to, read.email_message_id], [app.applicant_email, sent.body.email.message_id]);
  const message = await org.req('GET', `/api/communications/messages/${sent.body.email.message_id}`);
  ok(message, 200);
  assert.equal(message.body.recipient_address, app.applicant_email);
});

test('the fee paid before finalizing: kept with the application, then counted on the adoption', async () => {
  const org = await makeOrg(t);
  const dog = await animal(org);
  const adopter = await person(org);
  const appId = await application(org, adopter, [dog]);
  const url = `/api/animals/adoption-applications/${appId}/fee-payments`;
  assert.equal((await org.req('GET', `/api/animals/adoption-applications/${appId}`)).body.fee_paid_minor, 0);
  for (const body of [
    { amount_minor: 0, payment_method: 'cash' },
    { amount_minor: 100, payment_method: 'cash', date: '2999-01-01' },
  ]) {
    const r = await org.req('POST', url, { body });
    assertErrorShape(url, r, 422);
  }
  assertErrorShape(
    url,
    await org.req('POST', '/api/animals/adoption-applications/apa_none/fee-payments', {
      body: { amount_minor: 1, payment_method: 'cash' },
    }),
    404,
  );
  const paid = await org.req('POST', url, { body: { amount_minor: 10000, payment_method: 'cash', notes: 'receipt 7' } });
  ok(paid);
  assert.equal(paid.body.application.fee_paid_minor, 10000);
  assert.deepEqual(paid.body.application.fee_payment_ids, [paid.body.donation_id]);
  const d = (await org.req('GET', `/api/v1/donations/${paid.body.donation_id}`)).body;
  assert.deepEqual([d.amount, d.donorId, d.animalId, d.paymentMethod], [100, adopter, dog, 'cash']);
  assert.match(d.notes, /Adoption fee paid with the application.*receipt 7/);
  const more = await org.req('POST', url, { body: { amount_minor: 2500, payment_method: 'card' } });
  ok(more);
  assert.equal(more.body.application.fee_paid_minor, 12500);

  // Finalizing moves both payments to the adoption.
  const fin = await org.req('POST', `/api/animals/adoption-applications/${appId}/finalize`, {
    body: { fee_minor: 12500, fee_override_reason: 'agreed' },
  });
  ok(fin);
  const adoption = fin.body.results[0];
  assert.equal(adoption.fee_paid_minor, 12500);
  assert.deepEqual([...adoption.donation_ids].sort(), [paid.body.donation_id, more.body.donation_id].sort());
  // Once finalized, a payment belongs on the adoption.
  assertErrorShape(url, await org.req('POST', url, { body: { amount_minor: 100, payment_method: 'cash' } }), 422);
  const after = await org.req('POST', `/api/animals/adoptions/${adoption.id}/fee-payments`, {
    body: { amount_minor: 100, payment_method: 'cash' },
  });
  ok(after);
  assert.equal(after.body.adoption.fee_paid_minor, 12600);
});

securitySuite('adoption journey', () => t, [
  {
    method: 'POST',
    path: async (o) => `/api/animals/adoption-applications/${await application(o, await person(o), [await animal(o)])}/fee-payments`,
    body: { amount_minor: 500, payment_method: 'cash' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (o) => {
      const appId = await application(o, await person(o), [await animal(o)]);
      const r = await o.req('POST', `/api/animals/adoption-applications/${appId}/finalize`, { body: {} });
      ok(r);
      return `/api/animals/adoptions/${r.body.results[0].id}/fee-payments`;
    },
    body: { amount_minor: 500, payment_method: 'cash' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/people/similar?last_name=Securitysuite',
    area: 'people',
    level: 'read',
    seed: async (o) => {
      const r = await o.req('POST', '/api/v1/people', {
        body: { firstName: 'Sec', lastName: 'Securitysuite', email: `sec.${Math.random().toString(36).slice(2)}@example.org` },
      });
      ok(r);
      return r.body.id as string;
    },
  },
]);
