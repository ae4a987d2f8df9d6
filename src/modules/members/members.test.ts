import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TOTP, Secret } from 'otpauth';
import { testApp, makeOrg, request, type TestApp, type TestOrg, type Res } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { runDueJobs } from '../../platform/jobs.ts';

// Team members: invitations, sign-in and its limits, sessions and the cookie, cross-site refusal,
// two-factor sign-in, password resets, and a member's keys capped by the member's role.

let t: TestApp;
before(async () => {
  // A provider that is never reached: messages stay queued, and tests read the links from the log.
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=members' });
});
after(async () => t.close());

const PASSWORD = 'correct horse battery';
let n = 0;
const email = () => `member${++n}.${Date.now()}@example.org`;

function cookieOf(res: Res): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : [raw ?? '']).find((c) => c.startsWith('ark_session='));
  assert.ok(line, `no session cookie: ${JSON.stringify(raw)}`);
  return /^ark_session=([^;]*)/.exec(line)?.[1] ?? '';
}
const tokenOf = (url: string) => url.split('/').at(-1) ?? '';

/** Invite (admin key) and accept: the member and their session. */
async function member(org: TestOrg, role = 'staff', address = email()) {
  const inv = await org.req('POST', '/api/members', { body: { name: 'Sam Keeper', email: address, role } });
  assert.equal(inv.status, 201, inv.raw);
  const acc = await request(t, org.host, 'POST', '/api/session/invitation', {
    body: { token: tokenOf(inv.body.sign_in_url), password: PASSWORD },
  });
  assert.equal(acc.status, 200, acc.raw);
  return { id: inv.body.member.id as string, email: address, session: cookieOf(acc) };
}
const signIn = (org: TestOrg, body: Record<string, unknown>, headers?: Record<string, string>) =>
  request(t, org.host, 'POST', '/api/session', { body, headers });

test('an invitation: emailed link, accepted once, then the member is signed in with their role', async () => {
  const org = await makeOrg(t);
  const address = email();
  const inv = await org.req('POST', '/api/members', { body: { name: 'Sam Keeper', email: address, role: 'staff' } });
  assert.equal(inv.status, 201, inv.raw);
  assert.equal(inv.body.member.status, 'invited');
  assert.equal(inv.body.member.role, 'staff');
  assert.equal(inv.body.emailed, true);
  assert.match(inv.body.sign_in_url, new RegExp(`^http://${org.slug}\\.localhost:\\d+/app/invite/[A-Za-z0-9]{43}$`));
  const mail = await t.db.query<{ body_text: string }>(
    'SELECT body_text FROM comm_messages WHERE organization_id = $1 AND recipient_address = $2',
    [org.id, address],
  );
  assert.ok(mail[0]?.body_text.includes(inv.body.sign_in_url), 'the link is in the queued email');

  const token = tokenOf(inv.body.sign_in_url);
  const info = await request(t, org.host, 'GET', `/api/session/links/${token}`);
  assert.deepEqual(info.body, { purpose: 'invitation', email: address, name: 'Sam Keeper', organization: `Test Rescue ${org.slug}` });
  const short = await request(t, org.host, 'POST', '/api/session/invitation', { body: { token, password: 'short' } });
  assertErrorShape('/api/session/invitation', short, 422);
  assert.match(short.body.error, /password must be at least 10 characters/);
  const acc = await request(t, org.host, 'POST', '/api/session/invitation', { body: { token, password: PASSWORD, name: 'Sam' } });
  assert.equal(acc.status, 200, acc.raw);
  assert.equal(acc.body.member.status, 'active');
  assert.equal(acc.body.member.name, 'Sam');
  const setCookie = String(acc.headers['set-cookie']);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Lax/);
  assert.doesNotMatch(setCookie, /Domain=/i);
  assert.doesNotMatch(setCookie, /Secure/);
  const again = await request(t, org.host, 'POST', '/api/session/invitation', { body: { token, password: PASSWORD } });
  assertErrorShape('/api/session/invitation', again, 410);
  assert.equal((await request(t, org.host, 'GET', `/api/session/links/${token}`)).status, 410);

  const session = cookieOf(acc);
  const me = await request(t, org.host, 'GET', '/api/session', { session });
  assert.equal(me.status, 200);
  assert.equal(me.body.member.email, address);
  assert.equal(me.body.grants.settings, 'read');
  // The role's permissions: staff writes animals, cannot invite (settings admin).
  const made = await request(t, org.host, 'POST', '/api/v1/animals', {
    session,
    body: { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: '2024-01-02' },
  });
  assert.equal(made.status, 201, made.raw);
  const audited = await t.db.query<{ actor: string }>(
    "SELECT actor FROM audit_log WHERE organization_id = $1 AND entity_type = 'animal' AND entity_id = $2",
    [org.id, made.body.data?.id ?? made.body.id],
  );
  assert.equal(audited[0]?.actor, `member:${inv.body.member.id}`);
  const denied = await request(t, org.host, 'POST', '/api/members', { session, body: { name: 'X', email: email(), role: 'staff' } });
  assertErrorShape('/api/members', denied, 403);
  assert.match(denied.body.error, /^Your role needs admin permission on Settings/);
});

test('an invitation link expires, and a new one replaces the old', async () => {
  const org = await makeOrg(t);
  const inv = await org.req('POST', '/api/members', { body: { name: 'Late', email: email(), role: 'staff' } });
  const token = tokenOf(inv.body.sign_in_url);
  await t.db.query("UPDATE member_tokens SET expires_at = now() - interval '1 second' WHERE organization_id = $1", [org.id]);
  const late = await request(t, org.host, 'POST', '/api/session/invitation', { body: { token, password: PASSWORD } });
  assertErrorShape('/api/session/invitation', late, 410);
  assert.match(late.body.error, /used already or has expired/);
  const fresh = await org.req('POST', `/api/members/${inv.body.member.id}/invitation`);
  assert.equal(fresh.status, 201, fresh.raw);
  const ok = await request(t, org.host, 'POST', '/api/session/invitation', {
    body: { token: tokenOf(fresh.body.sign_in_url), password: PASSWORD },
  });
  assert.equal(ok.status, 200, ok.raw);
  const again = await org.req('POST', `/api/members/${inv.body.member.id}/invitation`);
  assertErrorShape('/api/members/x/invitation', again, 422);
  assert.equal(
    (await request(t, org.host, 'POST', '/api/session/invitation', { body: { token: 'nope', password: PASSWORD } })).status,
    404,
  );
});

test('invitations: email unique whatever its case, a real role, and no role beyond the inviter', async () => {
  const org = await makeOrg(t);
  const address = email();
  assert.equal((await org.req('POST', '/api/members', { body: { name: 'A', email: address, role: 'staff' } })).status, 201);
  const dup = await org.req('POST', '/api/members', { body: { name: 'B', email: address.toUpperCase(), role: 'staff' } });
  assertErrorShape('/api/members', dup, 422);
  assert.equal(dup.body.error, 'email is already a member of this organization.');
  const bad = await org.req('POST', '/api/members', { body: { name: 'C', email: 'not-an-email', role: 'nobody' } });
  assertErrorShape('/api/members', bad, 422);
  assert.match(bad.body.error, /email is not an email address \(and 1 more problem\)/);
  const settingsAdmin = await org.keyWith({ settings: 'admin', animals: 'read' });
  const above = await org.req('POST', '/api/members', { key: settingsAdmin, body: { name: 'D', email: email(), role: 'admin' } });
  assertErrorShape('/api/members', above, 403);
  const list = await org.req('GET', '/api/members?q=example.org');
  assert.equal(list.status, 200);
  assert.equal(list.body.results.length, 1);
});

/** A sign-in from a given client address (the socket's, as Ark reads it without a trusted proxy). */
async function signInFrom(org: TestOrg, body: Record<string, unknown>, address: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { host: org.host, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress: address,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res.body };
}

test('sign-in: wrong email and wrong password answer alike; attempts slow down per email and address, never lock out', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const unknown = await signIn(org, { email: 'nobody@example.org', password: PASSWORD });
  const wrong = await signIn(org, { email: m.email, password: 'wrong password!' });
  assertErrorShape('/api/session', unknown, 401);
  assert.deepEqual(wrong.body, unknown.body);
  const ok = await signIn(org, { email: m.email.toUpperCase(), password: PASSWORD });
  assert.equal(ok.status, 200, ok.raw);
  // Seven wrong attempts at once from one address, for the member and for an unknown email: five 401s, then 429s, alike.
  const burst = (email: string) =>
    Promise.all(Array.from({ length: 7 }, () => signInFrom(org, { email, password: 'wrong password!' }, '10.9.0.1')));
  const known = await burst(m.email);
  const nobody = await burst('nobody@example.org');
  for (const tries of [known, nobody]) {
    assert.equal(tries.filter((r) => r.status === 401).length, 5, tries.map((r) => r.status).join());
    assert.equal(tries.filter((r) => r.status === 429).length, 2);
  }
  const slowed = await signInFrom(org, { email: m.email, password: PASSWORD }, '10.9.0.1');
  const slowedNobody = await signInFrom(org, { email: 'nobody@example.org', password: PASSWORD }, '10.9.0.1');
  assert.equal(slowed.status, 429);
  assert.equal(slowed.headers['retry-after'], '900');
  assert.deepEqual(slowed.body, slowedNobody.body, 'the same answer for a member and for nobody');
  assert.doesNotMatch(slowed.body.error, /account/);
  // The member, from their own address, is not locked out.
  assert.equal((await signInFrom(org, { email: m.email, password: PASSWORD }, '10.9.0.2')).status, 200);
  await t.db.query("UPDATE member_sign_in_failures SET at = now() - interval '16 minutes' WHERE organization_id = $1", [org.id]);
  assert.equal((await signInFrom(org, { email: m.email, password: PASSWORD }, '10.9.0.1')).status, 200);
});

test('sign-in: 20 failures from one address in 15 minutes stop that address', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  for (let i = 0; i < 20; i++) assert.equal((await signIn(org, { email: `x${i}@example.org`, password: PASSWORD })).status, 401);
  const stopped = await signIn(org, { email: m.email, password: PASSWORD });
  assertErrorShape('/api/session', stopped, 429);
  assert.match(stopped.body.error, /from this address/);
  await t.db.query("UPDATE member_sign_in_failures SET at = now() - interval '16 minutes' WHERE organization_id = $1", [org.id]);
  assert.equal((await signIn(org, { email: m.email, password: PASSWORD })).status, 200);
});

test('cookie-authenticated writes must come from a page of the same address', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const body = { name: 'Pip', species: 'cat', status: 'Available', intakeDate: '2024-01-02' };
  const send = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/animals',
      headers: { host: org.host, cookie: `ark_session=${m.session}`, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  const refused: Record<string, string>[] = [
    {},
    { origin: 'https://evil.example' },
    { origin: `http://${org.host}`, 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    { origin: 'null' },
  ];
  for (const headers of refused) {
    const res = await send(headers);
    assert.equal(res.statusCode, 403, `${JSON.stringify(headers)}: ${res.body}`);
    assert.match(res.body, /did not come from a page of this address/);
  }
  assert.equal((await send({ origin: `http://${org.host}` })).statusCode, 201);
  assert.equal((await send({ 'sec-fetch-site': 'same-origin' })).statusCode, 201);
  // A key never needs an Origin: scripts send none. Reads need none either.
  assert.equal((await org.req('POST', '/api/v1/animals', { body })).status, 201);
  assert.equal(
    (await t.app.inject({ method: 'GET', url: '/api/v1/animals', headers: { host: org.host, cookie: `ark_session=${m.session}` } }))
      .statusCode,
    200,
  );
  // Signing in from another site's page (login forgery) is refused too.
  const forged = await signIn(org, { email: m.email, password: PASSWORD }, { origin: 'https://evil.example' });
  assertErrorShape('/api/session', forged, 403);
});

test('signing out ends the session in every process; sign out everywhere ends them all', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const second = cookieOf(await signIn(org, { email: m.email, password: PASSWORD }));
  const third = cookieOf(await signIn(org, { email: m.email, password: PASSWORD }));
  const other = await testApp();
  try {
    assert.equal((await request(other, org.host, 'GET', '/api/session', { session: second })).status, 200);
    const out = await request(t, org.host, 'DELETE', '/api/session', { session: second });
    assert.equal(out.status, 204);
    assert.match(String(out.headers['set-cookie']), /ark_session=;/);
    const gone = await request(other, org.host, 'GET', '/api/v1/animals', { session: second });
    assertErrorShape('/api/v1/animals', gone, 401);
    assert.match(gone.body.error.message, /session has ended/);
    assert.equal((await request(other, org.host, 'GET', '/api/session', { session: third })).status, 200);
    assert.equal((await request(t, org.host, 'POST', '/api/session/sign-out-everywhere', { session: m.session })).status, 204);
    for (const s of [m.session, third]) assert.equal((await request(other, org.host, 'GET', '/api/session', { session: s })).status, 401);
  } finally {
    await other.close();
  }
  // A session of this organization means nothing at another's address; a key has no session.
  const org2 = await makeOrg(t);
  assert.equal((await request(t, org2.host, 'GET', '/api/session', { session: third })).status, 401);
  assert.equal((await org.req('GET', '/api/session')).status, 401);
  await t.db.query("UPDATE member_sessions SET last_seen_at = now() - interval '4 days' WHERE organization_id = $1", [org.id]);
});

test('sessions end when unused for 3 days, and at the latest after 14', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: m.session })).status, 200);
  await t.db.query("UPDATE member_sessions SET last_seen_at = now() - interval '3 days 1 minute' WHERE organization_id = $1", [org.id]);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: m.session })).status, 401);
  const s2 = cookieOf(await signIn(org, { email: m.email, password: PASSWORD }));
  await t.db.query("UPDATE member_sessions SET expires_at = now() - interval '1 second' WHERE organization_id = $1", [org.id]);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: s2 })).status, 401);
});

test("disabling a member ends their sessions and their keys; a member's key never exceeds their role", async () => {
  const org = await makeOrg(t);
  const boss = await member(org, 'admin');
  const m = await member(org, 'admin');
  // The member (an admin) makes an admin key; then the member becomes read-only: so does the key.
  const key = await request(t, org.host, 'POST', '/api/settings/keys', { session: m.session, body: { role: 'admin', label: 'mine' } });
  assert.equal(key.status, 201, key.raw);
  const k = key.body.key as string;
  assert.equal(
    (
      await org.req('POST', '/api/v1/animals', {
        key: k,
        body: { name: 'Kit', species: 'cat', status: 'Available', intakeDate: '2024-01-02' },
      })
    ).status,
    201,
  );
  assert.equal((await org.req('PATCH', `/api/members/${m.id}`, { body: { role: 'read-only' } })).status, 200);
  const capped = await org.req('POST', '/api/v1/animals', {
    key: k,
    body: { name: 'Kit', species: 'cat', status: 'Available', intakeDate: '2024-01-02' },
  });
  assertErrorShape('/api/v1/animals', capped, 403);
  assert.equal((await org.req('GET', '/api/v1/animals', { key: k })).status, 200);
  // Nobody disables themselves.
  const self = await request(t, org.host, 'PATCH', `/api/members/${boss.id}`, { session: boss.session, body: { status: 'disabled' } });
  assertErrorShape('/api/members/x', self, 422);
  const off = await request(t, org.host, 'PATCH', `/api/members/${m.id}`, { session: boss.session, body: { status: 'disabled' } });
  assert.equal(off.status, 200, off.raw);
  assert.equal(off.body.status, 'disabled');
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: m.session })).status, 401);
  assertErrorShape('/api/v1/animals', await org.req('GET', '/api/v1/animals', { key: k }), 401);
  assertErrorShape('/api/session', await signIn(org, { email: m.email, password: PASSWORD }), 401);
  const audit = await t.db.query<{ actor: string }>(
    "SELECT actor FROM audit_log WHERE organization_id = $1 AND entity_type = 'member' AND entity_id = $2 AND action = 'update' " +
      'ORDER BY id DESC LIMIT 1',
    [org.id, m.id],
  );
  assert.equal(audit[0]?.actor, `member:${boss.id}`);
  assert.equal((await org.req('PATCH', `/api/members/${m.id}`, { body: { status: 'active' } })).status, 200);
  assert.equal((await signIn(org, { email: m.email, password: PASSWORD })).status, 200);
});

test('a two-factor code works once: not twice within its window, and the set-up code never signs in', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const setup = await request(t, org.host, 'POST', '/api/session/account/two-factor', { session: m.session });
  const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
  const setupCode = totp.generate();
  const on = await request(t, org.host, 'POST', '/api/session/account/two-factor/confirm', {
    session: m.session,
    body: { code: setupCode, password: PASSWORD },
  });
  assert.equal(on.status, 200, on.raw);
  const again = await signIn(org, { email: m.email, password: PASSWORD, totp_code: setupCode });
  assertErrorShape('/api/session', again, 401);
  // The next period's code (accepted a period early, for clocks a little apart) works once; fired twice at once, once.
  const next = totp.generate({ timestamp: Date.now() + 30_000 });
  const twice = await Promise.all([0, 1].map(() => signIn(org, { email: m.email, password: PASSWORD, totp_code: next })));
  assert.deepEqual(twice.map((r) => r.status).sort(), [200, 401], twice.map((r) => r.raw).join());
  assertErrorShape('/api/session', await signIn(org, { email: m.email, password: PASSWORD, totp_code: next }), 401);
});

test('two-factor sign-in: set up, confirmed by a code, then asked for; recovery codes work once', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const setup = await request(t, org.host, 'POST', '/api/session/account/two-factor', { session: m.session });
  assert.equal(setup.status, 200, setup.raw);
  assert.match(setup.body.otpauth_url, /^otpauth:\/\/totp\//);
  const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
  const wrongCode = totp.generate() === '000000' ? '111111' : '000000';
  const bad = await request(t, org.host, 'POST', '/api/session/account/two-factor/confirm', {
    session: m.session,
    body: { code: wrongCode, password: PASSWORD },
  });
  assertErrorShape('/api/session/account/two-factor/confirm', bad, 422);
  const noPassword = await request(t, org.host, 'POST', '/api/session/account/two-factor/confirm', {
    session: m.session,
    body: { code: totp.generate(), password: 'not the password' },
  });
  assertErrorShape('/api/session/account/two-factor/confirm', noPassword, 422);
  assert.equal(noPassword.body.error, 'password is not right.');
  const on = await request(t, org.host, 'POST', '/api/session/account/two-factor/confirm', {
    session: m.session,
    body: { code: totp.generate(), password: PASSWORD },
  });
  assert.equal(on.status, 200, on.raw);
  assert.equal(on.body.recovery_codes.length, 10);

  // Until both factors are checked, a right password answers exactly as a wrong one.
  const noCode = await signIn(org, { email: m.email, password: PASSWORD });
  const wrongPassword = await signIn(org, { email: m.email, password: 'wrong password!' });
  assertErrorShape('/api/session', noCode, 401);
  assert.deepEqual(noCode.body, wrongPassword.body);
  const wrong = await signIn(org, { email: m.email, password: PASSWORD, totp_code: wrongCode });
  assert.deepEqual([wrong.status, wrong.body], [401, wrongPassword.body]);
  await t.db.query('UPDATE members SET totp_last_step = NULL WHERE organization_id = $1', [org.id]);
  const right = await signIn(org, { email: m.email, password: PASSWORD, totp_code: totp.generate() });
  assert.equal(right.status, 200, right.raw);
  assert.equal(right.body.member.two_factor, true);
  const code = on.body.recovery_codes[0];
  assert.equal((await signIn(org, { email: m.email, password: PASSWORD, recovery_code: code })).status, 200);
  assertErrorShape('/api/session', await signIn(org, { email: m.email, password: PASSWORD, recovery_code: code }), 401);
  // Wrong password with a right code is still a wrong password.
  assertErrorShape('/api/session', await signIn(org, { email: m.email, password: 'nope nope nope', totp_code: totp.generate() }), 401);
  const offBad = await request(t, org.host, 'POST', '/api/session/account/two-factor/disable', {
    session: m.session,
    body: { password: 'nope nope nope' },
  });
  assertErrorShape('/api/session/account/two-factor/disable', offBad, 422);
  const off = await request(t, org.host, 'POST', '/api/session/account/two-factor/disable', {
    session: m.session,
    body: { password: PASSWORD },
  });
  assert.equal(off.status, 204);
  assert.equal((await signIn(org, { email: m.email, password: PASSWORD })).status, 200);
});

test('password reset: never says who is a member; the link works once, for an hour, and ends every session', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const answers = [];
  for (const address of [m.email, 'nobody@example.org']) {
    const res = await request(t, org.host, 'POST', '/api/session/password-reset', { body: { email: address } });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { accepted: true });
    answers.push(res);
  }
  // The answer does the same work for a member as for nobody (it queues a job): no link, no email before the job runs.
  const before = await t.db.query<{ n: number }>(
    "SELECT (SELECT count(*) FROM member_tokens WHERE organization_id = $1 AND purpose = 'password_reset')::int + " +
      "(SELECT count(*) FROM comm_messages WHERE organization_id = $1 AND subject LIKE 'Reset your Ark password%')::int AS n",
    [org.id],
  );
  assert.equal(before[0]?.n, 0);
  const queued = await t.db.query<{ kind: string }>(
    "SELECT kind FROM jobs WHERE organization_id = $1 AND kind = 'members.password_reset'",
    [org.id],
  );
  assert.equal(queued.length, 2);
  await runDueJobs(t.ctx, { orgId: org.id });
  const mail = await t.db.query<{ body_text: string }>(
    "SELECT body_text FROM comm_messages WHERE organization_id = $1 AND subject LIKE 'Reset your Ark password%'",
    [org.id],
  );
  assert.equal(mail.length, 1);
  const link = /(http:\S+\/app\/reset\/[A-Za-z0-9]{43})/.exec(mail[0]?.body_text ?? '')?.[1] ?? '';
  const token = tokenOf(link);
  assert.equal((await request(t, org.host, 'GET', `/api/session/links/${token}`)).body.purpose, 'password_reset');
  // An invitation endpoint does not take a reset token.
  assert.equal((await request(t, org.host, 'POST', '/api/session/invitation', { body: { token, password: PASSWORD } })).status, 404);
  const weak = await request(t, org.host, 'POST', '/api/session/password', { body: { token, password: m.email } });
  assertErrorShape('/api/session/password', weak, 422);
  const done = await request(t, org.host, 'POST', '/api/session/password', { body: { token, password: 'a brand new password' } });
  assert.equal(done.status, 204, done.raw);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: m.session })).status, 401);
  assertErrorShape(
    '/api/session/password',
    await request(t, org.host, 'POST', '/api/session/password', { body: { token, password: 'another new password' } }),
    410,
  );
  assert.equal((await signIn(org, { email: m.email, password: PASSWORD })).status, 401);
  assert.equal((await signIn(org, { email: m.email, password: 'a brand new password' })).status, 200);
  // An hour later a link no longer works.
  await request(t, org.host, 'POST', '/api/session/password-reset', { body: { email: m.email } });
  await runDueJobs(t.ctx, { orgId: org.id });
  await t.db.query("UPDATE member_tokens SET expires_at = now() - interval '1 second' WHERE organization_id = $1", [org.id]);
  const mail2 = await t.db.query<{ body_text: string }>(
    "SELECT body_text FROM comm_messages WHERE organization_id = $1 AND subject LIKE 'Reset your Ark password%' " +
      'ORDER BY created_at DESC LIMIT 1',
    [org.id],
  );
  const late = tokenOf(/(http:\S+\/app\/reset\/[A-Za-z0-9]{43})/.exec(mail2[0]?.body_text ?? '')?.[1] ?? '');
  assert.notEqual(late, token);
  assertErrorShape(
    '/api/session/password',
    await request(t, org.host, 'POST', '/api/session/password', { body: { token: late, password: 'another new password' } }),
    410,
  );
});

test('password reset: at most 3 links an hour per account, asked for six times alike', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  for (let i = 0; i < 6; i++) {
    const res = await request(t, org.host, 'POST', '/api/session/password-reset', { body: { email: m.email } });
    assert.deepEqual([res.status, res.body], [202, { accepted: true }]);
  }
  await runDueJobs(t.ctx, { orgId: org.id });
  const mail = await t.db.query("SELECT 1 FROM comm_messages WHERE organization_id = $1 AND subject LIKE 'Reset your Ark password%'", [
    org.id,
  ]);
  assert.equal(mail.length, 3);
  await t.db.query("UPDATE member_tokens SET created_at = now() - interval '61 minutes' WHERE organization_id = $1", [org.id]);
  await request(t, org.host, 'POST', '/api/session/password-reset', { body: { email: m.email } });
  await runDueJobs(t.ctx, { orgId: org.id });
  const more = await t.db.query("SELECT 1 FROM comm_messages WHERE organization_id = $1 AND subject LIKE 'Reset your Ark password%'", [
    org.id,
  ]);
  assert.equal(more.length, 4, 'an hour later, a link again');
});

test('your own account: name and password (the other sessions end)', async () => {
  const org = await makeOrg(t);
  const m = await member(org);
  const other = cookieOf(await signIn(org, { email: m.email, password: PASSWORD }));
  const named = await request(t, org.host, 'PATCH', '/api/session/account', { session: m.session, body: { name: 'Samantha' } });
  assert.equal(named.body.name, 'Samantha');
  const wrong = await request(t, org.host, 'POST', '/api/session/account/password', {
    session: m.session,
    body: { current_password: 'x', new_password: 'a long new password' },
  });
  assertErrorShape('/api/session/account/password', wrong, 422);
  assert.equal(wrong.body.error, 'current_password is not right.');
  const ok = await request(t, org.host, 'POST', '/api/session/account/password', {
    session: m.session,
    body: { current_password: PASSWORD, new_password: 'a long new password' },
  });
  assert.equal(ok.status, 204);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: m.session })).status, 200);
  assert.equal((await request(t, org.host, 'GET', '/api/session', { session: other })).status, 401);
});

/** A role holding only read on Settings: any settings admin may put members under it. */
async function settingsReader(org: TestOrg) {
  const name = `reader-${++n}`;
  await org.req('POST', '/api/settings/roles', { body: { name, grants: { settings: 'read' } } });
  return name;
}

securitySuite('members', () => t, [
  { method: 'GET', path: () => '/api/members', area: 'settings', level: 'read', seed: async (org) => (await member(org)).id },
  { method: 'GET', path: async (org) => `/api/members/${(await member(org)).id}`, area: 'settings', level: 'read' },
  {
    method: 'POST',
    path: async (org) => {
      await t.db.query(
        'INSERT INTO roles (organization_id, id, name, grants) VALUES ($1, $2, \'reader\', \'{"settings":"read"}\') ON CONFLICT DO NOTHING',
        [org.id, `rol_reader_${org.id}`],
      );
      return '/api/members';
    },
    body: { name: 'New', email: 'new.member@example.org', role: 'reader' },
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (org) => {
      const made = await org.req('POST', '/api/members', { body: { name: 'I', email: email(), role: await settingsReader(org) } });
      return `/api/members/${made.body.member.id}/invitation`;
    },
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'PATCH',
    path: async (org) => `/api/members/${(await member(org)).id}`,
    body: { name: 'Renamed' },
    area: 'settings',
    level: 'admin',
  },
]);
