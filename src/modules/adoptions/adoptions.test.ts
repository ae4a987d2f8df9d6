import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { animal, application, flagPerson, inspectPdf, person, stageId } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function stays(org: TestOrg, id: string) {
  const r = await org.req('GET', `/api/animals/${id}/stays`);
  assert.equal(r.status, 200, r.raw);
  return r.body;
}
const finalize = (org: TestOrg, appId: string, body: Record<string, unknown> = {}, key?: string) =>
  org.req('POST', `/api/animals/adoption-applications/${appId}/finalize`, { body, ...(key ? { key } : {}) });

test('stages: the defaults, one per name, refused removal while in use', async () => {
  const org = await makeOrg(t);
  const r = await org.req('GET', '/api/animals/application-stages');
  assert.equal(r.status, 200, r.raw);
  assert.deepEqual(
    r.body.results.map((s: { name: string; kind: string }) => `${s.name}:${s.kind}`),
    [
      'More info needed:open',
      'Pending vet check:open',
      'Pending home visit:open',
      'Pending adoption:open',
      'Approved:approved',
      'Denied:closed',
      'Withdrawn:closed',
      'Animal adopted:closed',
    ],
  );
  const dup = await org.req('POST', '/api/animals/application-stages', { body: { name: 'approved', kind: 'open' } });
  assertErrorShape('/api/animals/application-stages', dup, 422);
  const staff = await org.req('POST', '/api/animals/application-stages', {
    body: { name: 'Landlord check', kind: 'open' },
    key: org.keys.staff,
  });
  assert.equal(staff.status, 403);
  const made = await org.req('POST', '/api/animals/application-stages', { body: { name: 'Landlord check', kind: 'open' } });
  assert.equal(made.status, 201, made.raw);
  assert.equal(made.body.sort_order, 90);
  const a = await animal(org);
  const p = await person(org);
  const app = await org.req('POST', '/api/animals/adoption-applications', {
    body: { person_id: p, animal_ids: [a], stage_id: made.body.id },
  });
  assert.equal(app.status, 201, app.raw);
  assertErrorShape('/api/animals/application-stages/x', await org.req('DELETE', `/api/animals/application-stages/${made.body.id}`), 422);
});

test('applications: a new applicant becomes a person, answers are checked custom fields, several per animal', async () => {
  const org = await makeOrg(t);
  const field = await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'adoption_application', field_key: 'yard', field_label: 'Fenced yard', field_type: 'boolean' },
  });
  assert.equal(field.status, 201, field.raw);
  const a = await animal(org);
  const r = await org.req('POST', '/api/animals/adoption-applications', {
    body: { applicant: { first_name: 'Bea', last_name: 'New', email: 'bea.new@example.org' }, animal_ids: [a], answers: { yard: true } },
  });
  assert.equal(r.status, 201, r.raw);
  assert.match(r.body.id, /^apl_/);
  assert.equal(r.body.applicant_name, 'Bea New');
  assert.equal(r.body.stage, 'More info needed');
  assert.equal(r.body.decision, null);
  assert.deepEqual(r.body.answers, { yard: true });
  assert.deepEqual(r.body.warnings, []);
  assert.deepEqual(r.body.registry_flags, []);
  const again = await org.req('POST', '/api/animals/adoption-applications', {
    body: { applicant: { first_name: 'Bea', last_name: 'New', email: 'BEA.NEW@example.org' }, animal_ids: [a] },
  });
  assert.equal(again.body.person_id, r.body.person_id, 'the person with that email is reused');
  const bad = await org.req('POST', '/api/animals/adoption-applications', {
    body: { person_id: r.body.person_id, animal_ids: [a], answers: { yard: 'maybe' } },
  });
  assertErrorShape('/api/animals/adoption-applications', bad, 422);
  assert.ok(Object.keys(bad.body.fields ?? bad.body.details ?? {}).length >= 0);
  const lost = await org.req('POST', '/api/animals/adoption-applications', {
    body: { person_id: r.body.person_id, animal_ids: ['ani_nope'] },
  });
  assertErrorShape('/api/animals/adoption-applications', lost, 422);
  const neither = await org.req('POST', '/api/animals/adoption-applications', { body: { animal_ids: [a] } });
  assertErrorShape('/api/animals/adoption-applications', neither, 400);
  const list = await org.req('GET', `/api/animals/adoption-applications?animal_id=${a}`);
  assert.equal(list.body.results.length, 2);
  // Denied: the decision follows the stage.
  const denied = await org.req('PATCH', `/api/animals/adoption-applications/${again.body.id}`, {
    body: { stage_id: await stageId(org, 'Denied'), decision_reason: 'no landlord permission' },
  });
  assert.equal(denied.status, 200, denied.raw);
  assert.deepEqual(
    [denied.body.decision, denied.body.decision_reason, denied.body.stage_kind],
    ['denied', 'no landlord permission', 'closed'],
  );
  assert.ok(denied.body.decided_at);
});

test('template fill for related_entity_type adoption_application fills the applicant and the animals applied for', async () => {
  const org = await makeOrg(t);
  const a1 = await animal(org, { name: 'Rex' });
  const a2 = await animal(org, { name: 'Mia' });
  const p = await person(org, 'Cleo');
  const appId = await application(org, p, [a1, a2], false);
  const tpl = await org.req('POST', '/api/communications/templates', {
    body: {
      key: 'adoption.update',
      subject_template: 'About {{animal_name}}',
      body_template_blocks: [{ type: 'p', runs: [{ text: 'Hi {{first_name}}, {{animal_name}} at {{org_name}}.' }] }],
      status: 'active',
    },
  });
  assert.equal(tpl.status, 201, tpl.raw);
  const fill = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, {
    body: { related_entity_type: 'adoption_application', related_entity_id: appId },
  });
  assert.equal(fill.status, 200, fill.raw);
  assert.equal(fill.body.subject, 'About Rex and Mia');
  assert.deepEqual(fill.body.person_ids, [p]);
  assert.deepEqual(fill.body.animal_ids, [a1, a2]);
  assert.deepEqual(fill.body.unfilled, []);
  const missing = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, {
    body: { related_entity_type: 'adoption_application', related_entity_id: 'apl_nope' },
  });
  assert.equal(missing.status, 404);
  const other = await makeOrg(t);
  const tpl2 = await other.req('POST', '/api/communications/templates', {
    body: { key: 'x.y', subject_template: 'x', body_template_blocks: [{ type: 'p', runs: [{ text: 'x' }] }], status: 'active' },
  });
  const foreign = await other.req('POST', `/api/communications/templates/${tpl2.body.id}/fill`, {
    body: { related_entity_type: 'adoption_application', related_entity_id: appId },
  });
  assert.equal(foreign.status, 404, 'another organization cannot reach the application');
});

test('pipeline: fee rule, contract signed once, others closed, role, stay, return opens a stay, reconciliation', async () => {
  const org = await makeOrg(t);
  const fee = await org.req('POST', '/api/animals/fee-schedules', {
    body: {
      name: '2026',
      rules: [
        { name: 'Puppy', species: 'dog', max_age_weeks: 26, amount_minor: 35000 },
        { name: 'Adult dog', species: 'dog', min_age_weeks: 26, amount_minor: 25000 },
        { name: 'Any other', amount_minor: 5000 },
      ],
      promotions: [{ name: 'Cat summer', species: 'cat', starts_on: '2000-01-01', ends_on: '2999-12-31', waive: true }],
    },
  });
  assert.equal(fee.status, 201, fee.raw);
  const dog = await animal(org, { name: 'Rufus', dateOfBirth: '2020-01-01', microchipNumber: '981000000000001' });
  const cat = await animal(org, { name: 'Tom', species: 'cat' });
  assert.equal((await org.req('GET', `/api/animals/${cat}/adoption-fee`)).body.promotion, 'Cat summer');
  assert.equal((await org.req('GET', `/api/animals/${cat}/adoption-fee`)).body.amount_minor, 0);

  const winner = await person(org, 'Wyn');
  const loser = await person(org, 'Lou');
  const winApp = await application(org, winner, [dog]);
  const loseApp = await application(org, loser, [dog]); // several may be approved for one animal
  const open = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: loser, animal_ids: [dog] } });
  assertErrorShape('/api/animals/x', await finalize(org, open.body.id), 422); // an open stage is not finalized

  // Contract
  const tpl = await org.req('POST', '/api/animals/contract-templates', {
    body: {
      name: 'Standard',
      title: 'Adoption contract for {{animal_name}}',
      body:
        'I, {{full_name}}, adopt {{animal_name}} (chip {{microchip}}) from {{org_name}} for {{fee}}.' +
        '\n\nSpay/neuter due: {{spay_neuter_due_on}}.',
    },
  });
  assert.equal(tpl.status, 201, tpl.raw);
  assertErrorShape(
    '/api/animals/contract-templates',
    await org.req('POST', '/api/animals/contract-templates', { body: { name: 'x', title: 'x', body: '{{nope}}' } }),
    422,
  );
  const v2 = await org.req('PATCH', `/api/animals/contract-templates/${tpl.body.id}`, {
    body: { body: `${tpl.body.body}\n\nReturn to us, never rehome.` },
  });
  assert.equal(v2.body.version, 2);
  assert.equal((await org.req('GET', `/api/animals/contract-templates/${tpl.body.id}/versions`)).body.results.length, 2);
  const sent = await org.req('POST', '/api/animals/signed-contracts', { body: { application_id: winApp, template_id: tpl.body.id } });
  assert.equal(sent.status, 201, sent.raw);
  assert.equal(sent.body.status, 'awaiting_signature');
  assert.equal(sent.body.template_version, 2);
  assert.equal(sent.body.fee_minor, 25000);
  assert.deepEqual(sent.body.email, { sent: false, message_id: null, reason: 'sending is not configured' });
  assert.deepEqual(
    [sent.body.sent_to, sent.body.emailed_at, sent.body.email_message_id],
    [null, null, null],
    'not emailed: nothing says it was',
  );
  assert.match(sent.body.document, /I, Wyn Applicant\d+, adopt Rufus \(chip 981000000000001\) from .* for \$250\.00\./);
  assert.match(sent.body.document, /Spay\/neuter due: \d{4}-\d{2}-\d{2}/);
  assert.equal(createHash('sha256').update(sent.body.document, 'utf8').digest('hex'), sent.body.document_sha256, 'hash of the document');
  const url = new URL(sent.body.signing_url);
  assert.match(url.pathname, /^\/sign\/[A-Za-z0-9_-]{43}$/);

  assertErrorShape('/api/animals/x', await org.req('GET', `/api/animals/signed-contracts/${sent.body.id}/pdf`), 422);
  const pageRes = await request(t, org.host, 'GET', url.pathname);
  assert.equal(pageRes.status, 200);
  assert.match(String(pageRes.headers['content-type']), /text\/html/);
  assert.ok(pageRes.raw.includes('Rufus') && pageRes.raw.includes(sent.body.document_sha256));
  const form = (fields: Record<string, string>) =>
    request(t, org.host, 'POST', url.pathname, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'TestBrowser/1.0' },
    });
  const noConsent = await form({ name: 'Wyn', document_sha256: sent.body.document_sha256 });
  assert.equal(noConsent.status, 422);
  assert.match(noConsent.raw, /Tick the box/);
  const tampered = await form({ name: 'Wyn', consent: 'yes', document_sha256: '0'.repeat(64) });
  assert.equal(tampered.status, 422);
  const signed = await form({ name: 'Wyn Applicant', consent: 'yes', document_sha256: sent.body.document_sha256 });
  assert.equal(signed.status, 200, signed.raw);
  assert.match(signed.raw, /Thank you/);
  const reused = await form({ name: 'Someone Else', consent: 'yes', document_sha256: sent.body.document_sha256 });
  assert.equal(reused.status, 410);
  assert.match(reused.raw, /already signed/);
  assert.equal((await request(t, org.host, 'GET', url.pathname)).status, 410);
  const c = (await org.req('GET', `/api/animals/signed-contracts/${sent.body.id}`)).body;
  assert.equal(c.status, 'signed');
  assert.equal(c.signed_name, 'Wyn Applicant');
  assert.equal(c.signed_user_agent, 'TestBrowser/1.0');
  assert.ok(c.signed_ip);
  assert.equal(c.document_sha256, sent.body.document_sha256);
  // Immutable: no delete through the API, and the database refuses any change.
  assertErrorShape('/api/animals/x', await org.req('DELETE', `/api/animals/signed-contracts/${c.id}`), 422);
  await assert.rejects(
    t.db.query("UPDATE signed_contracts SET signed_name = 'X' WHERE organization_id = $1 AND id = $2", [org.id, c.id]),
    /immutable/,
  );
  await assert.rejects(t.db.query('DELETE FROM signed_contracts WHERE organization_id = $1 AND id = $2', [org.id, c.id]), /immutable/);
  // The PDF: rendered, not blank, with the signer, the document and its hash.
  const pdf = await org.req('GET', `/api/animals/signed-contracts/${c.id}/pdf`);
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  const raw = await t.app.inject({
    method: 'GET',
    url: `/api/animals/signed-contracts/${c.id}/pdf`,
    headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` },
  });
  const seen = await inspectPdf(raw.rawPayload, process.env.ARK_KEEP_PNG ? '/tmp/ark-contract.png' : undefined);
  assert.ok(seen.inked > 500, `page not blank (${seen.inked} inked pixels)`);
  assert.match(seen.text, /Adoption contract for Rufus/);
  assert.match(seen.text, /Signed electronically by: Wyn Applicant/);
  assert.ok(seen.text.replace(/\s+/g, '').includes(c.document_sha256), 'the document hash is printed');

  // Finalize the winner with its contract.
  const done = await finalize(org, winApp, { contract_id: c.id });
  assert.equal(done.status, 201, done.raw);
  const ad = done.body.results[0];
  assert.equal(done.body.results.length, 1);
  assert.deepEqual(
    [ad.status, ad.fee_minor, ad.fee_rule, ad.currency, ad.contract_id],
    ['adopted', 25000, 'Adult dog', org.currency, c.id],
  );
  assert.deepEqual(done.body.closed_application_ids.sort(), [loseApp, open.body.id].sort());
  const lost = (await org.req('GET', `/api/animals/adoption-applications/${loseApp}`)).body;
  assert.deepEqual([lost.stage, lost.decision, lost.decision_reason], ['Animal adopted', 'closed', 'animal adopted']);
  assert.equal((await org.req('GET', `/api/animals/adoption-applications/${winApp}`)).body.decision, 'adopted');
  const who = await org.req('GET', `/api/v1/people/${winner}`);
  assert.ok(who.body.roles.includes('adopter'));
  const s = await stays(org, dog);
  assert.equal(s.open_stay_id, null);
  assert.equal(s.results[0].outcome.type, 'adoption');
  assert.equal(s.results[0].outcome.destination_person_id, winner);
  // One adoption per stay: the animal is no longer in care.
  const again = await application(org, loser, [dog]);
  assertErrorShape('/api/animals/x', await finalize(org, again), 422);
  assertErrorShape('/api/animals/x', await finalize(org, winApp), 422);

  // A payment against the adoption, then the reconciliation.
  const paid = await org.req('POST', `/api/animals/adoptions/${ad.id}/donations`, {
    body: { amount_minor: 20000, payment_method: 'card' },
  });
  assert.equal(paid.status, 201, paid.raw);
  assert.equal(paid.body.donation_ids.length, 1);
  const don = await org.req('GET', `/api/v1/donations/${paid.body.donation_ids[0]}`);
  assert.equal(don.body.type, 'post-adoption');
  const twice = await org.req('POST', `/api/animals/adoptions/${ad.id}/donations`, { body: { donation_id: paid.body.donation_ids[0] } });
  assertErrorShape('/api/animals/x', twice, 422);
  const day = new Date().toISOString().slice(0, 10);
  const lo = '2000-01-01';
  const rec = await org.req('GET', `/api/animals/reconciliations?from=${lo}&to=2999-12-31`);
  assert.equal(rec.status, 200, rec.raw);
  assert.equal(rec.body.results.length, 1);
  assert.deepEqual(
    [rec.body.results[0].fee_due_minor, rec.body.results[0].received_minor, rec.body.results[0].difference_minor, rec.body.differences],
    [25000, 20000, -5000, 1],
  );
  const csv = await org.req('GET', `/api/animals/reconciliations/export?from=${lo}&to=2999-12-31`);
  assert.equal(csv.status, 200);
  assert.match(String(csv.headers['content-type']), /text\/csv/);
  const lines = csv.raw.trim().split('\n');
  assert.equal(
    lines[0],
    'adoption_id,adopted_on,animal_id,animal_name,person_id,adopter_name,fee_rule,' +
      'fee_due_minor,received_minor,difference_minor,currency,donation_ids',
  );
  assert.ok(lines[1]?.startsWith(`${ad.id},`) && lines[1].includes(',25000,20000,-5000,'));
  // A name a spreadsheet would run as a formula is written as text; the negative difference stays a number.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${dog}`, { body: { name: '=HYPERLINK("http://x.test","y")' } })).status, 200);
  const hostile = await org.req('GET', `/api/animals/reconciliations/export?from=${lo}&to=2999-12-31`);
  assert.ok(hostile.raw.includes(`,"'=HYPERLINK(""http://x.test"",""y"")",`), hostile.raw);
  assert.ok(hostile.raw.includes(',25000,20000,-5000,'));
  assertErrorShape('/api/animals/x', await org.req('GET', `/api/animals/reconciliations?from=${day}&to=2000-01-01`), 422);

  // The return: a new stay flagged as an adoption return; the adoption stays counted.
  const ret = await org.req('POST', `/api/animals/adoptions/${ad.id}/return`, { body: { reason: 'allergies' } });
  assert.equal(ret.status, 200, ret.raw);
  assert.deepEqual([ret.body.status, ret.body.return_reason, ret.body.within_return_window], ['returned', 'allergies', true]);
  const after = await stays(org, dog);
  assert.equal(after.results.length, 2);
  assert.equal(after.open_stay_id, ret.body.return_stay_id);
  assert.equal(after.results[0].intake.adoption_return, true);
  assert.equal(after.results[1].outcome.type, 'adoption', 'the adoption outcome stands');
  assertErrorShape('/api/animals/x', await org.req('POST', `/api/animals/adoptions/${ad.id}/return`, { body: { reason: 'again' } }), 422);
  const listed = await org.req('GET', `/api/animals/adoptions?animal_id=${dog}`);
  assert.deepEqual(
    listed.body.results.map((x: { status: string }) => x.status),
    ['returned'],
  );
  // After the return the animal can be adopted again (a new stay).
  const next = await finalize(org, again);
  assert.equal(next.status, 201, next.raw);
});

test('a live hold refuses finalizing; a banned applicant is warned, refused, only an admin overrides with a reason', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const p = await person(org);
  const hold = await org.req('POST', `/api/animals/${a}/holds`, { body: { reason: 'stray_hold', starts_at: '2020-01-01T00:00:00Z' } });
  assert.equal(hold.status, 201, hold.raw);
  const appId = await application(org, p, [a]);
  const held = await finalize(org, appId);
  assertErrorShape('/api/animals/x', held, 422);
  assert.match(held.raw, /live hold/);
  const rel = await org.req('POST', `/api/animals/holds/${hold.body.id}/release`, { body: {} });
  assert.equal(rel.status, 200, rel.raw);

  await flagPerson(org, p, 'banned');
  const warned = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: p, animal_ids: [a] } });
  assert.equal(warned.status, 201);
  assert.deepEqual(
    warned.body.warnings.map((w: { code: string }) => w.code),
    ['person_flagged'],
  );
  const refused = await finalize(org, appId);
  assertErrorShape('/api/animals/x', refused, 422);
  assert.match(refused.raw, /banned/);
  const staffOverride = await finalize(org, appId, { flag_override_reason: 'known to us, reformed' }, org.keys.staff);
  assertErrorShape('/api/animals/x', staffOverride, 403);
  const ok = await finalize(org, appId, { flag_override_reason: 'known to us, reformed' });
  assert.equal(ok.status, 201, ok.raw);
  assert.equal(ok.body.results[0].flag_override_reason, 'known to us, reformed');
  const audit = await t.db.query<{ detail: { reason: string } }>(
    "SELECT detail FROM audit_log WHERE organization_id = $1 AND action = 'override_flag' AND entity_id = $2",
    [org.id, appId],
  );
  assert.equal(audit[0]?.detail.reason, 'known to us, reformed');
});

test('concurrent finalizations of one animal: exactly one adoption', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const apps = [
    await application(org, await person(org), [a]),
    await application(org, await person(org), [a]),
    await application(org, await person(org), [a]),
  ];
  const res = await Promise.all(apps.map((id) => finalize(org, id)));
  assert.deepEqual(res.map((r) => r.status).sort(), [201, 422, 422], res.map((r) => r.raw).join('\n'));
  assert.deepEqual(res.map((r) => r.status).sort(), [201, 422, 422]);
  const list = await org.req('GET', `/api/animals/adoptions?animal_id=${a}`);
  assert.equal(list.body.results.length, 1);
});

test('fee override needs a reason; trial adoption then completion; foster assignment ends; bonded partner warned', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { name: 'Pip' });
  const b = await animal(org, { name: 'Pop' });
  const bond = await org.req('POST', `/api/animals/${a}/bonds`, { body: { animal_id: b } });
  assert.equal(bond.status, 201, bond.raw);
  const p = await person(org);
  const appId = await application(org, p, [a]);
  assertErrorShape('/api/animals/x', await finalize(org, appId, { fee_minor: 100 }), 400);
  assertErrorShape('/api/animals/x', await finalize(org, appId, { trial: true }), 400);
  const trial = await finalize(org, appId, {
    trial: true,
    trial_ends_on: '2999-01-01',
    fee_minor: 100,
    fee_override_reason: 'staff discount',
  });
  assert.equal(trial.status, 201, trial.raw);
  const tr = trial.body.results[0];
  assert.deepEqual([tr.status, tr.fee_minor, tr.fee_override_reason, tr.trial_ends_on], ['trial', 100, 'staff discount', '2999-01-01']);
  assert.ok(
    trial.body.warnings.some((w: { code: string; message: string }) => w.code === 'bonded_pair_split' && w.message.includes('Pop')),
  );
  assert.notEqual((await stays(org, a)).open_stay_id, null, 'a trial is not an adoption');
  assertErrorShape('/api/animals/x', await finalize(org, appId, {}), 422);
  // A foster home with a live placement of the animal, ended by the adoption.
  const home = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: p, capacity: 2 } });
  let assignment: string | null = null;
  if (home.status === 201) {
    const as = await org.req('POST', '/api/animals/foster-assignments', { body: { foster_home_id: home.body.id, animal_id: a } });
    if (as.status === 201) assignment = as.body.id as string;
  }
  const done = await org.req('POST', `/api/animals/adoptions/${tr.id}/complete`, { body: {} });
  assert.equal(done.status, 200, done.raw);
  assert.equal(done.body.status, 'adopted');
  assert.equal((await stays(org, a)).open_stay_id, null);
  if (assignment) {
    const as = await org.req('GET', `/api/animals/foster-assignments/${assignment}`);
    assert.equal(as.body.is_live, false);
  }
  const pp = await org.req('GET', `/api/v1/people/${p}`);
  assert.ok(pp.body.roles.includes('adopter'));
});

test('signing link expiry: an expired link gets a clear page; resend makes a fresh link and kills the old', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const appId = await application(org, await person(org), [a], false);
  const tpl = await org.req('POST', '/api/animals/contract-templates', {
    body: { name: 'S', title: 'Contract', body: 'Adopting {{animal_name}}.' },
  });
  const sent = await org.req('POST', '/api/animals/signed-contracts', {
    body: { application_id: appId, template_id: tpl.body.id, expires_in_hours: 1 },
  });
  assert.equal(sent.status, 201, sent.raw);
  await t.db.query("UPDATE signed_contracts SET token_expires_at = now() - interval '1 second' WHERE organization_id = $1 AND id = $2", [
    org.id,
    sent.body.id,
  ]);
  const path = new URL(sent.body.signing_url).pathname;
  const page = await request(t, org.host, 'GET', path);
  assert.equal(page.status, 410);
  assert.match(page.raw, /expired/);
  const post = await request(t, org.host, 'POST', path, {
    rawBody: `name=A&consent=yes&document_sha256=${sent.body.document_sha256}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(post.status, 410);
  assert.equal((await org.req('GET', `/api/animals/signed-contracts/${sent.body.id}`)).body.status, 'expired');
  const unknown = await request(t, org.host, 'GET', '/sign/nonsense');
  assert.equal(unknown.status, 404);
  assert.match(unknown.raw, /not valid/);
  // The signing pages run no script: neither inline nor eval, nothing from elsewhere, never framed.
  for (const r of [page, post, unknown]) {
    const csp = String(r.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'; script-src 'none';/);
    assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
  }
  // Another organization's host does not open it.
  const other = await makeOrg(t);
  assert.equal((await request(t, other.host, 'GET', path)).status, 404);
  // A fresh link for the expired contract: awaiting signature again; the new link opens, the old stays dead.
  const again = await org.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: { expires_in_hours: 2 } });
  assert.equal(again.status, 200, again.raw);
  assert.equal(again.body.status, 'awaiting_signature');
  assert.equal(again.body.document_sha256, sent.body.document_sha256, 'the document is unchanged');
  assert.deepEqual(again.body.email, { sent: false, message_id: null, reason: 'sending is not configured' });
  const fresh = new URL(again.body.signing_url).pathname;
  assert.notEqual(fresh, path);
  assert.equal((await request(t, org.host, 'GET', fresh)).status, 200);
  assert.equal((await request(t, org.host, 'GET', path)).status, 404, 'the old link names nothing now');
  // Another link again: the one just made stops working (single use, one live link per contract).
  const third = await org.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: { send_email: false } });
  assert.equal(third.status, 200, third.raw);
  assert.equal(third.body.email.reason, 'send_email was false');
  assert.equal((await request(t, org.host, 'GET', fresh)).status, 404);
  // Another organization cannot make one (404); a key with read only: 403.
  assertErrorShape('/api/animals/x', await other.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: {} }), 404);
  const reader = await org.keyWith({ animals: 'read', people: 'read' });
  assert.equal((await org.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: {}, key: reader })).status, 403);
  // Bad input: the Family B error, and the live link unchanged.
  const bad = await org.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: { expires_in_hours: 'soon' } });
  assertErrorShape('/api/animals/x', bad, 422);
  assert.equal((await request(t, org.host, 'GET', new URL(third.body.signing_url).pathname)).status, 200, 'the live link still opens');
  // Signed through the newest link: no more links (422).
  const signedNow = await request(t, org.host, 'POST', new URL(third.body.signing_url).pathname, {
    rawBody: `name=A&consent=yes&document_sha256=${sent.body.document_sha256}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(signedNow.status, 200, signedNow.raw);
  assertErrorShape('/api/animals/x', await org.req('POST', `/api/animals/signed-contracts/${sent.body.id}/resend`, { body: {} }), 422);
});

test('an unsigned contract may be withdrawn', async () => {
  const org = await makeOrg(t);
  const appId = await application(org, await person(org), [await animal(org)]);
  const tpl = await org.req('POST', '/api/animals/contract-templates', {
    body: { name: 'W', title: 'W', body: 'I adopt {{animal_name}}.' },
  });
  assert.equal(tpl.status, 201, tpl.raw);
  const sent = await org.req('POST', '/api/animals/signed-contracts', { body: { application_id: appId, template_id: tpl.body.id } });
  assert.equal(sent.status, 201, sent.raw);
  // An unsigned contract may be withdrawn.
  assert.equal((await org.req('DELETE', `/api/animals/signed-contracts/${sent.body.id}`)).status, 204);
});

test('cage cards: one PDF page per animal, not blank, with the key fields', async () => {
  const org = await makeOrg(t);
  const tpl = await org.req('POST', '/api/animals/cage-card-templates', { body: { name: 'Kennel', size: 'letter' } });
  assert.equal(tpl.status, 201, tpl.raw);
  assert.deepEqual(tpl.body.fields, ['name', 'species', 'breed', 'sex', 'age', 'microchip', 'intake_date', 'description']);
  const a = await animal(org, { name: 'Biscuit', breed: 'Beagle', dateOfBirth: '2022-03-01', microchipNumber: '981000000000777' });
  const b = await animal(org, { name: 'Crumb', species: 'cat' });
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/animals/cage-card-templates/${tpl.body.id}/cards?animal_id=${a}&animal_id=${b}`,
    headers: { host: org.host, authorization: `Bearer ${org.keys.readOnly}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/pdf');
  const seen = await inspectPdf(res.rawPayload, process.env.ARK_KEEP_PNG ? '/tmp/ark-cagecard.png' : undefined);
  assert.ok(seen.inked > 1000, `page not blank (${seen.inked})`);
  for (const s of ['Biscuit', 'Beagle', 'Species: dog', 'Microchip: 981000000000777', 'Intake date: 2024-01-02', 'Crumb', 'animals/'])
    assert.ok(seen.text.includes(s), `${s} in ${seen.text}`);
  assert.equal((seen.text.match(/\f/g) ?? []).length, 2, 'two pages');
  const none = await org.req('GET', `/api/animals/cage-card-templates/${tpl.body.id}/cards`);
  assertErrorShape('/api/animals/x', none, 400);
  const lost = await org.req('GET', `/api/animals/cage-card-templates/${tpl.body.id}/cards?animal_id=ani_nope`);
  assertErrorShape('/api/animals/x', lost, 422);
});

test('cage cards: the photo field prints the public photo; an animal without one gets a card without', async () => {
  const sharp = (await import('sharp')).default;
  const org = await makeOrg(t);
  const tpl = await org.req('POST', '/api/animals/cage-card-templates', {
    body: { name: 'With photo', size: 'a4', fields: ['photo', 'name', 'species'], show_qr: false },
  });
  assert.equal(tpl.status, 201, tpl.raw);
  const a = await animal(org, { name: 'Pepper' });
  const b = await animal(org, { name: 'Salt' });
  const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c02020' } })
    .png()
    .toBuffer();
  const boundary = 'arkcagecardtest';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="is_public"\r\n\r\ntrue\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await org.req('POST', `/api/animals/${a}/photos`, {
    rawBody: payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  assert.equal(up.status, 201, up.raw);
  const cards = async (id: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/animals/cage-card-templates/${tpl.body.id}/cards?animal_id=${id}`,
      headers: { host: org.host, authorization: `Bearer ${org.keys.readOnly}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.rawPayload;
  };
  const images = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length;
  const withPhoto = await cards(a);
  const without = await cards(b);
  assert.equal(images(withPhoto), 1, 'the photo is embedded');
  assert.equal(images(without), 0, 'no photo, no image');
  const seen = await inspectPdf(withPhoto, process.env.ARK_KEEP_PNG ? '/tmp/ark-cagecard-photo.png' : undefined);
  const plain = await inspectPdf(without);
  assert.ok(seen.text.includes('Pepper') && plain.text.includes('Salt'));
  assert.ok(seen.inked > plain.inked + 10000, `the photo is printed (${seen.inked} vs ${plain.inked} inked pixels)`);
});

test('ark seed: applications at several stages, two adoptions with signed contracts, a return, fees, a cage card', async () => {
  const { seedOrganization } = await import('../../cli/seed.ts');
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const apps = (await org.req('GET', '/api/animals/adoption-applications?limit=100')).body.results as { stage: string }[];
  assert.ok(new Set(apps.map((a) => a.stage)).size >= 4, JSON.stringify(apps.map((a) => a.stage)));
  const ads = (await org.req('GET', '/api/animals/adoptions')).body.results as {
    status: string;
    contract_id: string | null;
    fee_rule: string | null;
  }[];
  assert.equal(ads.length, 2);
  assert.deepEqual(ads.map((a) => a.status).sort(), ['adopted', 'returned']);
  for (const a of ads) {
    assert.ok(a.fee_rule, 'a fee rule is named');
    const c = await org.req('GET', `/api/animals/signed-contracts/${a.contract_id}`);
    assert.equal(c.body.status, 'signed');
  }
  const fees = (await org.req('GET', '/api/animals/fee-schedules')).body.results;
  assert.equal(fees[0].promotions.length, 1);
  assert.equal((await org.req('GET', '/api/animals/cage-card-templates')).body.results.length, 1);
});

test('applications name their animals (`animals` beside `animal_ids`) in one, the list and a change', async () => {
  const org = await makeOrg(t);
  const a1 = await animal(org, { name: 'Rex', species: 'dog' });
  const a2 = await animal(org, { name: 'Mia', species: 'cat' });
  const p = await person(org, 'Nora');
  const made = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: p, animal_ids: [a2, a1] } });
  assert.equal(made.status, 201, made.raw);
  const named = [
    { id: a2, name: 'Mia', species: 'cat' },
    { id: a1, name: 'Rex', species: 'dog' },
  ];
  assert.deepEqual(made.body.animals, named);
  const one = await org.req('GET', `/api/animals/adoption-applications/${made.body.id}`);
  assert.deepEqual(one.body.animals, named);
  const list = await org.req('GET', '/api/animals/adoption-applications');
  assert.equal(list.status, 200, list.raw);
  assert.deepEqual(list.body.results.find((x: { id: string }) => x.id === made.body.id).animals, named);
  // Renamed and then deleted: the application names the animal as it is now on file.
  await org.req('PATCH', `/api/v1/animals/${a1}`, { body: { name: 'Rexie' } });
  await org.req('DELETE', `/api/v1/animals/${a1}`);
  const later = await org.req('GET', `/api/animals/adoption-applications/${made.body.id}`);
  assert.deepEqual(
    later.body.animals.map((x: { name: string }) => x.name),
    ['Mia', 'Rexie'],
  );
  // Another organization's animals never appear: its own list is empty.
  const other = await makeOrg(t);
  const theirs = await other.req('GET', '/api/animals/adoption-applications');
  assert.deepEqual(theirs.body.results, []);
});

test('contract merge fields: the published list is exactly what a template may use', async () => {
  const org = await makeOrg(t);
  const res = await org.req('GET', '/api/animals/contract-templates/merge-fields');
  assert.equal(res.status, 200, res.raw);
  const names = (res.body.results as { name: string; description: string }[]).map((f) => f.name);
  assert.ok(names.includes('full_name') && names.includes('animal_name') && names.includes('today'), res.raw);
  for (const f of res.body.results) assert.ok(f.description.length > 3, `${f.name} is described`);
  // Every listed field is accepted, in one template.
  const all = await org.req('POST', '/api/animals/contract-templates', {
    body: { name: 'Every field', title: 'All', body: names.map((n) => `{{${n}}}`).join(' ') },
  });
  assert.equal(all.status, 201, all.raw);
  // A field off the list is refused, and the error names the known ones.
  const bad = await org.req('POST', '/api/animals/contract-templates', { body: { name: 'x', title: 'x', body: '{{shoe_size}}' } });
  assertErrorShape('/api/animals/contract-templates', bad, 422);
  assert.match(bad.raw, /shoe_size/);
  assert.match(bad.raw, new RegExp(names.join(', ')));
});
