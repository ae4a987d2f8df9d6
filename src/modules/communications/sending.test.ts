import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testApp, makeOrg, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape, unique } from '../../../test/security.ts';
import { fakeProvider, type FakeProvider } from './testing.ts';
import { parseProviders, classify, sendQueuedMail, type MailOptions } from './outbound.ts';

let t: TestApp;
let good: FakeProvider;
before(async () => {
  good = await fakeProvider({ name: 'good' });
  t = await testApp({ smtpProviders: good.url });
});
after(async () => {
  await t.close();
  await good.close();
});

const P = (text: string) => ({ type: 'p', runs: [{ text }] });
let seq = 0;
const key = () => `key-${Date.now()}-${seq++}`;

async function person(org: TestOrg, first: string, email?: string) {
  const r = await org.req('POST', '/api/v1/people', {
    body: {
      firstName: first,
      lastName: 'Tester',
      email: email ?? `${first}.${Math.random().toString(36).slice(2, 8)}@example.org`.toLowerCase(),
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.id as string, email: r.body.email as string };
}
async function activeTemplate(org: TestOrg, extra: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/communications/templates', {
    body: {
      key: `t${seq++}`,
      status: 'active',
      subject_template: 'Hi {{first_name}}',
      body_template_blocks: [
        P('News from {{org_name}} for {{ first_name }}.'),
        { type: 'button', runs: [{ text: 'Read more', href: 'https://example.org/news' }] },
      ],
      ...extra,
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}
/** Sends the organization's due mail now through `providers`; answers how many send jobs ran. */
const sendDue = (org: TestOrg, providers: string, o: MailOptions = {}) => sendQueuedMail(t.ctx, org.id, { providers, ...o });
const log = async (org: TestOrg, q = '') => (await org.req('GET', `/api/communications/messages${q}`)).body.results as any[];

test('providers: the ARK_SMTP_PROVIDERS format and SMTP error classes', () => {
  const p = parseProviders('smtp://u%40x:p%2Cw@mail.example.org:2587?name=primary, smtps://relay.example.net');
  assert.equal(p.length, 2);
  assert.deepEqual([p[0]?.tier, p[0]?.name, p[0]?.user, p[0]?.pass, p[0]?.port, p[0]?.secure], [1, 'primary', 'u@x', 'p,w', 2587, false]);
  assert.deepEqual([p[1]?.tier, p[1]?.name, p[1]?.port, p[1]?.secure], [2, 'relay.example.net:465', 465, true]);
  assert.throws(() => parseProviders('http://x'));
  assert.equal(classify({ responseCode: 550, command: 'RCPT TO', message: '' }), 'hard_bounce');
  assert.equal(classify({ responseCode: 451, command: 'MAIL FROM', message: '' }), 'rejected');
  assert.equal(classify({ responseCode: 554, command: 'MAIL FROM', message: '' }), 'rejected');
  assert.equal(classify({ code: 'ESOCKET', command: 'CONN', message: '' }), 'rejected');
  assert.equal(classify({ code: 'ECONNRESET', message: 'socket closed after DATA' }), 'ambiguous');
});

test('no provider configured: 503 saying so, the message logged as failed (not sent), the key left free', async () => {
  const bare = await testApp({ smtpProviders: undefined });
  try {
    const org = await makeOrg(bare);
    const p = await person(org, 'Nia');
    const send = () =>
      request(bare, org.host, 'POST', '/api/communications/messages', {
        key: org.keys.admin,
        body: { person_id: p.id, subject: 'Hi {{first_name}}', body_blocks: [P('x')], idempotency_key: 'a' },
      });
    const r = await send();
    assertErrorShape('/api/x', r, 503);
    assert.match(r.body.error, /^Not sent: no email provider is set up/);
    assert.match(r.body.message_id, /^msg_/);
    const logged = (await request(bare, org.host, 'GET', '/api/communications/messages', { key: org.keys.admin })).body.results;
    assert.equal(logged.length, 1);
    assert.equal(logged[0].id, r.body.message_id);
    assert.equal(logged[0].status, 'failed');
    assert.equal(logged[0].subject, 'Hi Nia');
    assert.equal(logged[0].recipient_address, p.email);
    assert.equal(logged[0].payload_metadata.reason, 'no_provider');
    assert.equal(logged[0].payload_metadata.error, 'not sent: no email provider is set up');
    assert.equal(logged[0].provider, '');
    const failed = (await request(bare, org.host, 'GET', '/api/communications/messages?status=failed', { key: org.keys.admin })).body;
    assert.equal(failed.results.length, 1);
    // Nothing claimed the key: the same request is checked and logged again, never replayed as if sent.
    const again = await send();
    assert.equal(again.status, 503);
    assert.notEqual(again.body.message_id, r.body.message_id);
    const keys = await bare.db.query('SELECT 1 FROM comm_send_requests WHERE organization_id = $1', [org.id]);
    assert.equal(keys.length, 0);
    // Bad input is still refused first, and logs nothing.
    const bad = await request(bare, org.host, 'POST', '/api/communications/messages', {
      key: org.keys.admin,
      body: { person_id: p.id, subject: 'Hi {{nickname}}', body_blocks: [P('x')], idempotency_key: 'b' },
    });
    assertErrorShape('/api/x', bad, 422);
    const rows = await bare.db.query("SELECT status FROM comm_messages WHERE organization_id = $1 AND status <> 'failed'", [org.id]);
    assert.equal(rows.length, 0);
    assert.equal((await bare.db.query('SELECT 1 FROM comm_messages WHERE organization_id = $1', [org.id])).length, 2);
  } finally {
    await bare.close();
  }
});

test('the files provider (development): ARK_SMTP_PROVIDERS=files writes each message as an .eml under the data folder', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ark-outbox-'));
  const dev = await testApp({ smtpProviders: 'files', dataDir });
  try {
    assert.deepEqual(
      parseProviders('files', dataDir).map((p) => [p.tier, p.name, p.dir]),
      [[1, 'files', path.join(dataDir, 'outbox')]],
    );
    assert.equal(parseProviders('file:///tmp/ark-mail')[0]?.dir, '/tmp/ark-mail');
    const org = await makeOrg(dev);
    const p = await person(org, 'Ola');
    const r = await request(dev, org.host, 'POST', '/api/communications/messages', {
      key: org.keys.admin,
      body: { person_id: p.id, subject: 'Welcome {{first_name}}', body_blocks: [P('From {{org_name}}.')], idempotency_key: 'files-1' },
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const id = r.body.results[0].id as string;
    // The configured provider (ARK_SMTP_PROVIDERS=files) sends it.
    assert.equal(await sendQueuedMail(dev.ctx, org.id), 1);
    const eml = await readFile(path.join(dataDir, 'outbox', `${id}.eml`), 'utf8');
    assert.match(eml, /^Subject: Welcome Ola$/m);
    assert.match(eml, new RegExp(`^To: ${p.email}$`, 'm'));
    assert.match(eml, /From Test Rescue/);
    const m = (await request(dev, org.host, 'GET', `/api/communications/messages/${id}`, { key: org.keys.admin })).body;
    assert.equal(m.status, 'sent');
    assert.equal(m.provider, 'files');
    assert.equal(m.provider_message_id, `${id}.eml`);
    // The sender settings list no DNS record for the files stand-in.
    const sender = await request(dev, org.host, 'GET', '/api/communications/sender', { key: org.keys.admin });
    assert.equal(sender.status, 200);
  } finally {
    await dev.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('send from a template: logged queued before SMTP, then sent once through the provider with headers and DKIM', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana');
  const tpl = await activeTemplate(org, { metadata: { category: 'adoption_updates' } });
  assert.equal((await org.req('GET', '/api/communications/sender')).status, 200); // makes the DKIM key
  const r = await org.req('POST', '/api/communications/messages', {
    body: { person_id: ana.id, template_id: tpl },
    headers: { 'idempotency-key': key() },
  });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const m = r.body.results[0];
  assert.equal(m.status, 'queued');
  assert.equal(m.category, 'adoption_updates');
  assert.equal(m.person_id, ana.id);
  assert.equal(m.template_id, tpl);
  assert.equal(m.subject, 'Hi Ana');
  assert.equal(m.tenant_id, org.id);
  assert.equal(m.direction, 'outbound');
  assert.equal(m.channel, 'email');
  const before = good.received.length;
  assert.equal(await sendDue(org, good.url), 1);
  assert.equal(await sendDue(org, good.url), 0);
  assert.equal(good.received.length, before + 1);
  const mail = good.received[good.received.length - 1];
  assert.equal(mail?.subject, 'Hi Ana');
  assert.match(mail?.text ?? '', /News from Test Rescue .* for Ana\./);
  assert.match(String(mail?.html), /<a href="https:\/\/example.org\/news"/);
  const unsub = String(mail?.headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/^list-unsubscribe:\s*/i, ''));
  assert.match(unsub, /\/api\/communications\/unsubscribe\/[A-Za-z0-9]+/);
  assert.match(
    String(mail?.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line),
    /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/i,
  );
  assert.ok(mail?.headers.get('dkim-signature'), 'DKIM-signed');
  assert.match(String(mail?.messageId), new RegExp(`${m.id}@${org.slug}`));
  const sent = (await log(org))[0];
  assert.equal(sent.status, 'sent');
  assert.equal(sent.provider, 'good');
  assert.match(sent.provider_message_id, /^good-\d+$/);
  assert.equal(sent.payload_metadata.failover_attempts.length, 1);
  assert.deepEqual(Object.keys(sent.payload_metadata.failover_attempts[0]).sort(), [
    'attempted_at',
    'error',
    'provider',
    'provider_message_id',
    'success',
    'tier',
  ]);
  assert.equal(sent.payload_metadata.failover_attempts[0].success, true);

  // One-click unsubscribe from the header: no key, form body, idempotent.
  const path = new URL(unsub.replace(/[<>]/g, '')).pathname;
  const page = await request(t, org.host, 'GET', path, { key: null });
  assert.equal(page.status, 200);
  assert.match(page.raw, /<form method="post"/);
  for (let i = 0; i < 2; i++) {
    const u = await request(t, org.host, 'POST', path, {
      key: null,
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(u.status, 200, u.raw);
    assert.equal(u.body.unsubscribed, true);
  }
  const prefs = await org.req('GET', `/api/communications/people/${ana.id}/preferences`);
  assert.equal(prefs.body.preferences.find((p: any) => p.category === 'adoption_updates').opted_out, true);
  assertErrorShape('/api/x', await request(t, org.host, 'POST', '/api/communications/unsubscribe/nope', { key: null }), 404);
  // opted out now: the next adoption update is stopped, transactional still goes
  const again = await org.req('POST', '/api/communications/messages', {
    body: { person_id: ana.id, template_id: tpl, idempotency_key: key() },
  });
  assert.equal(again.body.results[0].status, 'suppressed');
  assert.equal(again.body.results[0].payload_metadata.reason, 'opted_out');
  const tx = await org.req('POST', '/api/communications/messages', {
    body: { person_id: ana.id, template_id: tpl, category: 'transactional', idempotency_key: key() },
  });
  assert.equal(tx.body.results[0].status, 'queued');
});

test('failover: a 4xx and a 5xx provider are passed over, every attempt recorded', async () => {
  const org = await makeOrg(t);
  const soft = await fakeProvider({ name: 'soft', failMailFrom: 451 });
  const hard = await fakeProvider({ name: 'hard', failMailFrom: 554 });
  try {
    const p = await person(org, 'Ben');
    const r = await org.req('POST', '/api/communications/messages', {
      body: { person_id: p.id, subject: 'Hello {{first_name}}', body_blocks: [P('Written by hand.')], idempotency_key: key() },
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.results[0].subject, 'Hello Ben');
    const before = good.received.length;
    await sendDue(org, [soft.url, hard.url, good.url].join(','));
    assert.equal(good.received.length, before + 1);
    const m = (await log(org))[0];
    assert.equal(m.status, 'sent');
    assert.equal(m.provider, 'good');
    const a = m.payload_metadata.failover_attempts;
    assert.deepEqual(
      a.map((x: any) => [x.tier, x.provider, x.success]),
      [
        [1, 'soft', false],
        [2, 'hard', false],
        [3, 'good', true],
      ],
    );
    assert.match(a[0].error, /451/);
    assert.match(a[1].error, /554/);
  } finally {
    await soft.close();
    await hard.close();
  }
});

test('every provider refusing: queued again for a retry, failed after the last attempt; nothing marked sent', async () => {
  const org = await makeOrg(t);
  const soft = await fakeProvider({ name: 'soft', failMailFrom: 421 });
  try {
    const p = await person(org, 'Cy');
    await org.req('POST', '/api/communications/messages', {
      body: { person_id: p.id, subject: 'S', body_blocks: [P('x')], idempotency_key: key() },
    });
    assert.equal(await sendDue(org, soft.url, { maxAttempts: 2 }), 1);
    let m = (await log(org))[0];
    assert.equal(m.status, 'queued');
    assert.match(m.payload_metadata.error, /421/);
    // Its job waits out the back-off (a minute): not run again until then.
    assert.equal(await sendDue(org, soft.url, { maxAttempts: 2 }), 0);
    await t.db.query("UPDATE jobs SET run_at = now() WHERE organization_id = $1 AND kind = 'communications.send'", [org.id]);
    assert.equal(await sendDue(org, soft.url, { maxAttempts: 2 }), 1);
    m = (await log(org))[0];
    assert.equal(m.status, 'failed');
    assert.equal(m.payload_metadata.failover_attempts.length, 2);
    assert.equal(m.provider_message_id, ''); // a string in the spec, empty when none
  } finally {
    await soft.close();
  }
});

test('idempotency: same key and body replays, different body 422, concurrent twins make one message and one email', async () => {
  const org = await makeOrg(t);
  const p = await person(org, 'Dee');
  const body = { person_id: p.id, subject: 'Once', body_blocks: [P('only once')] };
  const k = key();
  const a = await org.req('POST', '/api/communications/messages', { body, headers: { 'idempotency-key': k } });
  const b = await org.req('POST', '/api/communications/messages', { body: { ...body, idempotency_key: k } });
  assert.equal(a.status, 202);
  assert.equal(b.status, 202);
  assert.equal(b.headers['idempotent-replayed'], 'true');
  assert.deepEqual(
    b.body.results.map((m: any) => m.id),
    a.body.results.map((m: any) => m.id),
  );
  const c = await org.req('POST', '/api/communications/messages', {
    body: { ...body, subject: 'Twice' },
    headers: { 'idempotency-key': k },
  });
  assertErrorShape('/api/x', c, 422);
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', { body: { ...body, idempotency_key: 'x' }, headers: { 'idempotency-key': 'y' } }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/messages', { body }), 400);

  const k2 = key();
  const twins = await Promise.all(
    Array.from({ length: 8 }, () =>
      org.req('POST', '/api/communications/messages', { body: { ...body, subject: 'Race' }, headers: { 'idempotency-key': k2 } }),
    ),
  );
  for (const r of twins) assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.equal(new Set(twins.map((r) => r.body.results[0].id)).size, 1);
  const rows = await t.db.query("SELECT id FROM comm_messages WHERE organization_id = $1 AND subject = 'Race'", [org.id]);
  assert.equal(rows.length, 1);
  const before = good.received.length;
  await Promise.all([sendDue(org, good.url), sendDue(org, good.url), sendDue(org, good.url)]);
  assert.equal(good.received.length, before + 2, 'the first message and the race winner, each once');
});

test('refusals: unfilled merge field, inactive template, bad addresses, unsafe link; nothing logged', async () => {
  const org = await makeOrg(t);
  const p = await person(org, 'Eve');
  const tpl = await activeTemplate(org, { subject_template: 'Hi {{first_name}} {{secret_code}}' });
  const r = await org.req('POST', '/api/communications/messages', { body: { person_id: p.id, template_id: tpl, idempotency_key: key() } });
  assertErrorShape('/api/x', r, 422);
  assert.match(r.body.error, /secret_code/);
  const ok = await org.req('POST', '/api/communications/messages', {
    body: { person_id: p.id, template_id: tpl, variables: { secret_code: '42' }, idempotency_key: key() },
  });
  assert.equal(ok.body.results[0].subject, 'Hi Eve 42');
  await org.req('POST', `/api/communications/templates/${tpl}/archive`);
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', {
      body: { person_id: p.id, template_id: tpl, variables: { secret_code: '1' }, idempotency_key: key() },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', {
      body: { to_addresses: ['not-an-address'], subject: 's', body_blocks: [P('x')], idempotency_key: key() },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', {
      body: {
        person_id: p.id,
        subject: 's',
        body_blocks: [{ type: 'p', runs: [{ text: 'x', href: '{{u}}' }] }],
        variables: { u: 'javascript:alert(1)' },
        idempotency_key: key(),
      },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', { body: { subject: 's', body_blocks: [P('x')], idempotency_key: key() } }),
    400,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', { body: { person_id: p.id, idempotency_key: key() } }),
    400,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', {
      body: { person_id: p.id, subject: 's', body_blocks: [{ type: 'blink', runs: [] }], idempotency_key: key() },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/messages', {
      key: org.keys.readOnly,
      body: { person_id: p.id, subject: 's', body_blocks: [P('x')], idempotency_key: key() },
    }),
    403,
  );
  assert.equal((await log(org)).length, 1);
});

test('suppressions: organization and platform lists, cc/bcc copies, hard bounce suppresses automatically', async () => {
  const org = await makeOrg(t);
  const p = await person(org, 'Fay');
  const added = await org.req('POST', '/api/communications/suppressions', {
    body: { address: p.email.toUpperCase(), reason: 'asked by phone' },
  });
  assert.equal(added.status, 201);
  assert.equal(added.body.address, p.email);
  assert.equal((await org.req('POST', '/api/communications/suppressions', { body: { address: p.email } })).status, 200);
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/suppressions', { body: { address: 'nope' } }), 422);
  const s = await org.req('POST', '/api/communications/messages', {
    body: { person_id: p.id, subject: 's', body_blocks: [P('x')], idempotency_key: key() },
  });
  const m = s.body.results[0];
  assert.equal(m.status, 'suppressed');
  assert.equal(m.payload_metadata.suppression_scope, 'organization');
  assert.equal(m.payload_metadata.suppression_reason, 'asked by phone');
  assert.ok(m.payload_metadata.reason);

  const platformAddr = `plat-${seq++}@example.net`;
  await t.db.query("INSERT INTO comm_platform_suppressions (address, reason, source) VALUES ($1, 'spam complaint', 'cli')", [platformAddr]);
  const pl = await org.req('POST', '/api/communications/messages', {
    body: { to_addresses: [platformAddr], subject: 's', body_blocks: [P('x')], idempotency_key: key() },
  });
  assert.equal(pl.body.results[0].status, 'suppressed');
  assert.equal(pl.body.results[0].payload_metadata.suppression_scope, 'platform');

  const other = await person(org, 'Gus');
  const cc = await org.req('POST', '/api/communications/messages', {
    body: {
      person_id: other.id,
      cc: [p.email, 'fine@example.org'],
      bcc: [platformAddr],
      subject: 's',
      body_blocks: [P('x')],
      idempotency_key: key(),
    },
  });
  const cm = cc.body.results[0];
  assert.equal(cm.status, 'queued');
  assert.deepEqual(cm.payload_metadata.copies_suppressed, [p.email, platformAddr]);
  assert.deepEqual(cm.payload_metadata.cc, ['fine@example.org']);

  // removing needs admin
  assertErrorShape('/api/x', await org.req('DELETE', `/api/communications/suppressions/${added.body.id}`, { key: org.keys.staff }), 403);
  assert.equal((await org.req('DELETE', `/api/communications/suppressions/${added.body.id}`)).status, 204);
  assertErrorShape('/api/x', await org.req('DELETE', `/api/communications/suppressions/${added.body.id}`), 404);

  // hard bounce at send time (550 at RCPT): bounced, not failed over, address suppressed
  const bouncer = await fakeProvider({ name: 'bouncer', rejectRcpt: (a) => (a.startsWith('gone') ? 550 : null) });
  try {
    const gone = `gone-${seq++}@example.org`;
    await org.req('POST', '/api/communications/messages', {
      body: { to_addresses: [gone], subject: 'b', body_blocks: [P('x')], idempotency_key: key() },
    });
    const before = good.received.length;
    await sendDue(org, [bouncer.url, good.url].join(','));
    assert.equal(good.received.length, before, 'the bounced message was not failed over to the next provider');
    assert.equal(bouncer.received.length, 1, 'the earlier cc message went through the first provider');
    const b = (await log(org, '?status=bounced'))[0];
    assert.equal(b.recipient_address, gone);
    assert.equal(b.payload_metadata.failover_attempts.length, 1);
    const list = await org.req('GET', `/api/communications/suppressions?address=${gone}`);
    assert.equal(list.body.results[0].source, 'bounce');
    const next = await org.req('POST', '/api/communications/messages', {
      body: { to_addresses: [gone], subject: 'b2', body_blocks: [P('x')], idempotency_key: key() },
    });
    assert.equal(next.body.results[0].status, 'suppressed');
  } finally {
    await bouncer.close();
  }
});

test('preferences: opt out per category; transactional cannot be opted out of', async () => {
  const org = await makeOrg(t);
  const p = await person(org, 'Hal');
  const r = await org.req('PUT', `/api/communications/people/${p.id}/preferences/fundraising`, { body: { opted_out: true } });
  assert.equal(r.status, 200);
  assert.equal(r.body.preferences.find((x: any) => x.category === 'fundraising').opted_out, true);
  assertErrorShape(
    '/api/x',
    await org.req('PUT', `/api/communications/people/${p.id}/preferences/transactional`, { body: { opted_out: true } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('PUT', '/api/communications/people/per_nobody/preferences/fundraising', { body: { opted_out: true } }),
    404,
  );
  const f = await org.req('POST', '/api/communications/messages', {
    body: { person_id: p.id, category: 'fundraising', subject: 'Give', body_blocks: [P('x')], idempotency_key: key() },
  });
  assert.equal(f.body.results[0].status, 'suppressed');
  assert.match(f.body.results[0].payload_metadata.suppression_reason, /fundraising/);
  const v = await org.req('POST', '/api/communications/messages', {
    body: { person_id: p.id, category: 'volunteer_news', subject: 'Shifts', body_blocks: [P('x')], idempotency_key: key() },
  });
  assert.equal(v.body.results[0].status, 'queued');
  // the log filters
  assert.equal((await log(org, '?category=fundraising')).length, 1);
  assert.equal((await log(org, '?status=suppressed')).length, 1);
  assert.equal((await log(org, `?person_id=${p.id}&direction=outbound`)).length, 2);
  assert.equal((await log(org, '?direction=inbound')).length, 0);
  const page = await org.req('GET', '/api/communications/messages?limit=1');
  assert.equal(page.body.has_more, true);
  assert.equal(page.body.results[0].subject, 'Shifts', 'newest first');
});

test('crash and restart: queued mail is sent exactly once; mail caught mid-SMTP is not resent blindly', async () => {
  const org = await makeOrg(t);
  const p = await person(org, 'Ivy');
  const sendOne = (subject: string) =>
    org.req('POST', '/api/communications/messages', {
      body: { person_id: p.id, subject, body_blocks: [P('x')], idempotency_key: key() },
    });
  // A worker that died holding the send job of `subject`: its claim is an hour old and never renewed.
  const diedHolding = (subject: string, message: string) =>
    Promise.all([
      t.db.query(`UPDATE comm_messages SET ${message}, updated_at = now() WHERE organization_id = $1 AND subject = $2`, [org.id, subject]),
      t.db.query(
        "UPDATE jobs SET status = 'running', lock_token = 'dead', locked_at = now() - interval '1 hour', attempts = 1 " +
          'WHERE organization_id = $1 AND key = (SELECT id FROM comm_messages WHERE organization_id = $1 AND subject = $2)',
        [org.id, subject],
      ),
    ]);
  for (let i = 0; i < 3; i++) await sendOne(`Queued ${i}`);
  // a worker claimed this one and died before talking to any provider: safe to send again
  await sendOne('Claimed');
  await diedHolding('Claimed', "status = 'sending', attempt_token = 'dead', locked_at = now() - interval '1 hour', attempts = 1");
  // a worker died in the middle of the SMTP conversation: the provider may have taken it
  await sendOne('Ambiguous');
  await diedHolding(
    'Ambiguous',
    "status = 'sending', attempt_token = 'dead', locked_at = now() - interval '1 hour', smtp_started_at = now() - interval '1 hour'",
  );
  // a worker recorded this one sent and died before finishing its job: the job runs again and sends nothing
  await sendOne('Recorded');
  await diedHolding('Recorded', "status = 'sent', provider = 'good', provider_message_id = 'earlier', attempts = 1");
  const listed = await log(org, '?status=queued');
  assert.equal(listed.length, 5, 'claimed messages show as queued');

  const before = good.received.length;
  // Three workers at once: each job runs once, whichever worker claims it.
  const ran = await Promise.all([sendDue(org, good.url), sendDue(org, good.url), sendDue(org, good.url)]);
  assert.equal(
    ran.reduce((a, b) => a + b, 0),
    6,
  );
  assert.equal(await sendDue(org, good.url), 0);
  const subjects = good.received
    .slice(before)
    .map((m) => m.subject)
    .sort();
  assert.deepEqual(subjects, ['Claimed', 'Queued 0', 'Queued 1', 'Queued 2']);
  const all = await log(org);
  const amb = all.find((m) => m.subject === 'Ambiguous');
  assert.equal(amb.status, 'failed');
  assert.equal(amb.payload_metadata.needs_review, true);
  const recorded = all.find((m) => m.subject === 'Recorded');
  assert.equal(recorded.provider_message_id, 'earlier', 'the message recorded sent was left as it was');
  assert.equal((await log(org, '?status=sent')).length, 5);
  const jobs = await t.db.query<{ status: string; n: string }>(
    "SELECT status, count(*) AS n FROM jobs WHERE organization_id = $1 AND kind = 'communications.send' GROUP BY status",
    [org.id],
  );
  assert.deepEqual(
    jobs.map((j) => [j.status, Number(j.n)]),
    [['done', 6]],
  );
});

test('sender: DNS records to publish, custom sending domain gets its own key, admin to change', async () => {
  const org = await makeOrg(t);
  const s = await org.req('GET', '/api/communications/sender');
  assert.equal(s.status, 200);
  assert.equal(s.body.sending_domain, `${org.slug}.localhost`);
  const dkim = s.body.dns_records.find((r: any) => r.name.includes('._domainkey.'));
  assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
  assert.ok(s.body.dns_records.some((r: any) => r.value.startsWith('v=spf1')));
  assert.ok(s.body.dns_records.some((r: any) => r.name.startsWith('_dmarc.') && r.value.startsWith('v=DMARC1')));
  assertErrorShape('/api/x', await org.req('PATCH', '/api/communications/sender', { key: org.keys.staff, body: { from_name: 'X' } }), 403);
  assertErrorShape('/api/x', await org.req('PATCH', '/api/communications/sender', { body: { sending_domain: 'not a domain' } }), 422);
  const u = await org.req('PATCH', '/api/communications/sender', {
    body: { from_name: 'Happy Tails', sending_domain: 'mail.happytails.org', reply_to: 'team@happytails.org' },
  });
  assert.equal(u.status, 200);
  assert.equal(u.body.from_name, 'Happy Tails');
  assert.equal(u.body.sending_domain, 'mail.happytails.org');
  assert.notEqual(u.body.dkim_selector, s.body.dkim_selector);
  const p = await person(org, 'Jo');
  await org.req('POST', '/api/communications/messages', {
    body: { person_id: p.id, subject: 'From us', body_blocks: [P('x')], idempotency_key: key() },
  });
  const before = good.received.length;
  await sendDue(org, good.url);
  const mail = good.received[before];
  assert.equal(mail?.from?.value[0]?.address, 'hello@mail.happytails.org');
  assert.equal(mail?.from?.value[0]?.name, 'Happy Tails');
  assert.equal(mail?.replyTo?.value[0]?.address, 'team@happytails.org');
  assert.match(
    String(
      mail?.headers.get('dkim-signature')
        ? ((mail.headers.get('dkim-signature') as any).params?.d ?? JSON.stringify(mail.headers.get('dkim-signature')))
        : '',
    ),
    /mail\.happytails\.org/,
  );
});

const mkSup = async (o: TestOrg) => {
  const body = { address: `s${seq++}@example.org` };
  return `/api/communications/suppressions/${(await o.req('POST', '/api/communications/suppressions', { body })).body.id}`;
};
const mkPerson = async (o: TestOrg) => (await person(o, 'Sec')).id;
securitySuite('communications sending', () => t, [
  {
    method: 'POST',
    path: () => '/api/communications/messages',
    body: { to_addresses: ['a@example.org'], subject: 's', body_blocks: [P('x')], idempotency_key: 'sec' },
    area: 'communications',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (o) => {
      const p = await mkPerson(o);
      const r = await o.req('POST', '/api/communications/messages', {
        body: { person_id: p, subject: 's', body_blocks: [P('x')], idempotency_key: key() },
      });
      return `/api/communications/messages/${r.body.results[0].id}`;
    },
    area: 'communications',
    level: 'read',
  },
  // (The message log's list, moved here from the templates tests: seeding it needs a provider.)
  {
    method: 'GET',
    path: () => '/api/communications/messages',
    seed: async (o) =>
      (
        await o.req('POST', '/api/communications/messages', {
          body: { to_addresses: ['sec@example.org'], subject: 's', body_blocks: [P('x')], idempotency_key: key() },
        })
      ).body.results[0].id,
    area: 'communications',
    level: 'read',
  },
  { method: 'GET', path: () => '/api/communications/suppressions', area: 'communications', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/communications/suppressions',
    body: () => ({ address: `${unique('sec')}@example.org` }),
    area: 'communications',
    level: 'write',
  },
  { method: 'DELETE', path: mkSup, area: 'communications', level: 'admin' },
  {
    method: 'GET',
    path: async (o) => `/api/communications/people/${await mkPerson(o)}/preferences`,
    area: 'communications',
    level: 'read',
  },
  {
    method: 'PUT',
    path: async (o) => `/api/communications/people/${await mkPerson(o)}/preferences/fundraising`,
    body: { opted_out: true },
    area: 'communications',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/communications/sender',
    singleton: true,
    seed: async (o) => (await o.req('PATCH', '/api/communications/sender', { body: { from_name: `Sender ${o.slug}` } })).body.from_name,
    area: 'communications',
    level: 'read',
  },
  { method: 'PATCH', path: () => '/api/communications/sender', body: { from_name: 'x' }, area: 'communications', level: 'admin' },
]);
