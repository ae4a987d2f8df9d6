import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { makeOrg, testApp, type TestApp } from '../../../test/harness.ts';
import { securitySuite } from '../../../test/security.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { PORTAL_OPEN_PAGES, PORTAL_PAGES, REGISTERED_PAGES } from './pages.ts';
import { cookieOf, fosterInCare, makePerson, multipartBody, portalReq, signInByInvitation } from './testing.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=portal' });
});
after(async () => t.close());

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c84' } })
    .png()
    .toBuffer();

test('an invitation link signs a person in once; the cookie is for /portal only and the link cannot be used again', async () => {
  const org = await makeOrg(t);
  const personId = await makePerson(org, { firstName: 'Ines' });
  const inv = await org.req('POST', `/api/people/${personId}/portal-invitations`);
  assert.equal(inv.status, 201, inv.raw);
  assert.equal(inv.body.created, true);
  assert.equal(inv.body.account.status, 'invited');
  assert.equal(inv.body.emailed, true);
  const path = new URL(inv.body.sign_in_url).pathname;
  assert.match(path, /^\/portal\/link\/[A-Za-z0-9]{43}$/);
  // The token is kept hashed: the database never holds the link.
  const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM portal_tokens WHERE organization_id = $1', [org.id]);
  assert.ok(stored.every((r) => !path.includes(r.token_hash)));

  // Opening the link only asks (a mail scanner fetching it does not use it up).
  const ask = await portalReq(t, org, 'GET', path);
  assert.equal(ask.status, 200);
  assert.match(ask.body, /Continue to the portal/);
  assert.match(ask.body, new RegExp(org.slug)); // the organization's name in the site's header
  const used = await portalReq(t, org, 'POST', path, { form: {} });
  assert.equal(used.status, 303);
  const setCookie = String(used.headers['set-cookie']);
  assert.match(setCookie, /Path=\/portal/);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Lax/);
  const cookie = cookieOf(used);
  const home = await portalReq(t, org, 'GET', '/portal/', { cookie });
  assert.equal(home.status, 200);
  assert.match(home.body, /Hello, Ines/);
  assert.equal(home.headers['cache-control'], 'no-store');

  const again = await portalReq(t, org, 'POST', path, { form: {} });
  assert.equal(again.status, 410);
  assert.equal((await portalReq(t, org, 'GET', path)).status, 410);
  assert.equal((await org.req('GET', `/api/people/${personId}/portal-account`)).body.status, 'active');

  // The sign-in shows in the person's history, the person as actor.
  const audit = await t.db.query<{ actor: string; action: string }>(
    "SELECT actor, action FROM audit_log WHERE organization_id = $1 AND entity_type = 'person' AND entity_id = $2 ORDER BY id",
    [org.id, personId],
  );
  assert.ok(audit.some((a) => a.action === 'portal_sign_in' && a.actor === `person:${personId}`));

  // An expired invitation does not sign in.
  const inv2 = await org.req('POST', `/api/people/${personId}/portal-invitations`);
  await t.db.query("UPDATE portal_tokens SET expires_at = now() - interval '1 second' WHERE organization_id = $1 AND used_at IS NULL", [
    org.id,
  ]);
  assert.equal((await portalReq(t, org, 'POST', new URL(inv2.body.sign_in_url).pathname, { form: {} })).status, 410);

  // Signing out ends the session.
  assert.equal((await portalReq(t, org, 'POST', '/portal/sign-out', { cookie, form: {} })).status, 200);
  assert.equal((await portalReq(t, org, 'GET', '/portal/account', { cookie })).status, 401);
});

test('invitations: a person without an email, another person holding the email, bulk with mixed results', async () => {
  const org = await makeOrg(t);
  const noEmail = await makePerson(org);
  await t.db.query("UPDATE people SET email = '' WHERE organization_id = $1 AND id = $2", [org.id, noEmail]);
  const r = await org.req('POST', `/api/people/${noEmail}/portal-invitations`);
  assert.equal(r.status, 422, r.raw);
  assert.equal((await org.req('POST', '/api/people/per_nobody/portal-invitations')).status, 404);
  const a = await makePerson(org);
  const b = await makePerson(org);
  const bulk = await org.req('POST', '/api/people/portal-invitations', { body: { person_ids: [a, b, noEmail, 'per_nobody'] } });
  assert.equal(bulk.status, 200, bulk.raw);
  assert.equal(bulk.body.invited, 2);
  assert.deepEqual(
    bulk.body.results.map((x: { invited: boolean }) => x.invited),
    [true, true, false, false],
  );
  // Turned off: every session ends, no sign-in.
  const cookie = await signInByInvitation(t, org, a);
  const off = await org.req('PUT', `/api/people/${a}/portal-account/status`, { body: { enabled: false } });
  assert.equal(off.body.status, 'disabled');
  assert.equal((await portalReq(t, org, 'GET', '/portal/', { cookie })).body.includes('Hello'), false);
  const on = await org.req('PUT', `/api/people/${a}/portal-account/status`, { body: { enabled: true } });
  assert.equal(on.body.status, 'active');
});

test('an emailed sign-in link: asked for alike whatever the address, one use, at most three an hour', async () => {
  const org = await makeOrg(t);
  const personId = await makePerson(org, { email: 'foster.fern@example.org' });
  await org.req('POST', `/api/people/${personId}/portal-invitations`);
  for (const email of ['foster.fern@example.org', 'nobody@example.org']) {
    const res = await portalReq(t, org, 'POST', '/portal/sign-in/link', { form: { email } });
    assert.equal(res.status, 200);
    assert.match(res.body, /Check your email/);
  }
  assert.equal((await portalReq(t, org, 'POST', '/portal/sign-in/link', { form: { email: 'not an email' } })).status, 422);
  await runDueJobs(t.ctx, { orgId: org.id });
  const sent = await t.db.query<{ recipient_address: string; body_html: string | null; subject: string }>(
    'SELECT * FROM comm_messages WHERE organization_id = $1 AND subject LIKE $2',
    [org.id, 'Sign in to the%'],
  );
  assert.equal(sent.length, 1);
  assert.equal(sent[0]?.recipient_address, 'foster.fern@example.org');
  const link = /\/portal\/link\/[A-Za-z0-9]{43}/.exec(JSON.stringify(sent[0]))?.[0];
  assert.ok(link);
  const used = await portalReq(t, org, 'POST', link, { form: {} });
  assert.equal(used.status, 303);
  assert.equal((await portalReq(t, org, 'POST', link, { form: {} })).status, 410);
  for (let i = 0; i < 4; i++) await portalReq(t, org, 'POST', '/portal/sign-in/link', { form: { email: 'foster.fern@example.org' } });
  await runDueJobs(t.ctx, { orgId: org.id });
  const links = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM portal_tokens WHERE organization_id = $1 AND purpose = 'sign_in'",
    [org.id],
  );
  assert.equal(links[0]?.n, 3);
});

test('a password: set from the account page, then sign-in with the staff slow-down rules', async () => {
  const org = await makeOrg(t);
  const personId = await makePerson(org, { email: 'vera.volunteer@example.org' });
  const cookie = await signInByInvitation(t, org, personId);
  const short = await portalReq(t, org, 'POST', '/portal/account/password', { cookie, form: { new_password: 'short' } });
  assert.equal(short.status, 422);
  assert.match(short.body, /at least 10 characters/);
  const set = await portalReq(t, org, 'POST', '/portal/account/password', { cookie, form: { new_password: 'a long garden password' } });
  assert.equal(set.status, 200);
  assert.match(set.body, /Your password is saved/);
  const hash = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM portal_accounts WHERE organization_id = $1', [
    org.id,
  ]);
  assert.match(hash[0]?.password_hash ?? '', /^\$argon2id\$/);

  const ok = await portalReq(t, org, 'POST', '/portal/sign-in/password', {
    form: { email: 'VERA.volunteer@example.org', password: 'a long garden password' },
    headers: { 'x-forwarded-for': '10.0.0.1' },
  });
  assert.equal(ok.status, 303);
  assert.ok(cookieOf(ok));
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++)
    statuses.push(
      (
        await portalReq(t, org, 'POST', '/portal/sign-in/password', {
          form: { email: 'vera.volunteer@example.org', password: `wrong ${i}` },
        })
      ).status,
    );
  assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
  // The right password is refused too while the pair is slowed down; an unknown email answers alike.
  assert.equal(
    (
      await portalReq(t, org, 'POST', '/portal/sign-in/password', {
        form: { email: 'vera.volunteer@example.org', password: 'a long garden password' },
      })
    ).status,
    429,
  );
  const unknown = await portalReq(t, org, 'POST', '/portal/sign-in/password', {
    form: { email: 'nobody@example.org', password: 'whatever else' },
  });
  assert.equal(unknown.status, 401);
  assert.match(unknown.body, /The email address or the password is not right/);
});

test('isolation: every portal page needs a portal session of this organization; the portal cookie opens no API route', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const mine = await fosterInCare(t, org);
  const theirs = await fosterInCare(t, other);
  const member = await org.sessionWith('admin');
  const path = (p: string) => p.replace(':id', mine.animalId);
  for (const entry of PORTAL_PAGES) {
    const [method, p] = entry.split(' ') as ['GET' | 'POST', string];
    const url = path(p);
    const form = method === 'POST' ? { form: {} } : {};
    // Nothing, an API key, a team member's session, another organization's portal session: the sign-in page.
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${org.keys.admin}` },
      { cookie: `ark_session=${member.session}` },
      { cookie: `ark_portal=${theirs.cookie}` },
    ]) {
      const res = await portalReq(t, org, method, url, { ...form, headers });
      // The portal's address answers its sign-in page; every other page answers 401 with it.
      assert.equal(res.status, entry === 'GET /portal/' ? 200 : 401, `${entry} with ${JSON.stringify(headers)}: ${res.status}`);
      assert.match(res.body, /Sign in with a password/);
      assert.doesNotMatch(res.body, /Hello,/);
      assert.doesNotMatch(res.body, /Pickle/);
    }
    // A post from another site's page is refused before anything is read.
    if (method === 'POST') {
      const cross = await portalReq(t, org, 'POST', url, { cookie: mine.cookie, form: {}, headers: { origin: 'https://evil.example' } });
      assert.equal(cross.status, 403, entry);
    }
  }
  // The walk covers every page there is: a new page must be listed (and so walked) or named as open.
  assert.deepEqual([...REGISTERED_PAGES].sort(), [...PORTAL_PAGES, ...PORTAL_OPEN_PAGES].sort());
  // The portal cookie is no key: API routes (Family A and B, staff and member routes) answer 401.
  for (const url of [
    '/api/v1/people',
    `/api/v1/animals/${mine.animalId}`,
    `/api/people/${mine.personId}/portal-account`,
    '/api/session',
    '/api/members',
  ]) {
    const res = await t.app.inject({ method: 'GET', url, headers: { host: org.host, cookie: `ark_portal=${mine.cookie}` } });
    assert.equal(res.statusCode, 401, url);
  }
  // Another foster's animal, another organization's animal: not found, as if it did not exist.
  assert.equal((await portalReq(t, org, 'GET', `/portal/animals/${theirs.animalId}`, { cookie: mine.cookie })).status, 404);
  const second = await fosterInCare(t, org, 'Noodle');
  const res = await portalReq(t, org, 'GET', `/portal/animals/${second.animalId}`, { cookie: mine.cookie });
  assert.equal(res.status, 404);
  assert.doesNotMatch(res.body, /Noodle/);
  for (const action of ['weights', 'requests', 'medications'])
    assert.equal(
      (
        await portalReq(t, org, 'POST', `/portal/animals/${second.animalId}/${action}`, {
          cookie: mine.cookie,
          form: { weight: '2', details: 'x', name: 'x' },
        })
      ).status,
      404,
    );
  // The other foster's home page does not list this foster's animal, nor this foster's contact details.
  const secondHome = await portalReq(t, org, 'GET', '/portal/', { cookie: second.cookie });
  assert.doesNotMatch(secondHome.body, /Pickle/);
  const me = await org.req('GET', `/api/v1/people/${mine.personId}`);
  assert.doesNotMatch(secondHome.body, new RegExp(String(me.body.email).replace(/[.+]/g, '\\$&')));
});

test('a foster: care instructions without staff notes, an update with a photo for review, a weight, a medication, a request', async () => {
  const org = await makeOrg(t);
  const f = await fosterInCare(t, org);
  await org.req('POST', `/api/animals/${f.animalId}/notes`, {
    body: { kind: 'general', body: 'Feed twice a day, wet food only.', visibility: 'shareable' },
  });
  await org.req('POST', `/api/animals/${f.animalId}/notes`, {
    body: { kind: 'general', body: 'STAFF ONLY: owner surrendered after a bite.' },
  });
  const page = await portalReq(t, org, 'GET', `/portal/animals/${f.animalId}`, { cookie: f.cookie });
  assert.equal(page.status, 200);
  assert.match(page.body, /Feed twice a day, wet food only\./);
  assert.doesNotMatch(page.body, /STAFF ONLY/);

  const photo = await png();
  const up = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/updates`, {
    cookie: f.cookie,
    multipart: multipartBody({ body: 'Pickle ate all her food and played.' }, [
      { name: 'photo', filename: 'pickle.png', data: photo, type: 'image/png' },
    ]),
  });
  assert.equal(up.status, 303, up.body);
  assert.equal(up.headers.location, `/portal/animals/${f.animalId}?done=update`);
  const bad = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/updates`, {
    cookie: f.cookie,
    multipart: multipartBody({ body: 'x' }, [{ name: 'photo', filename: 'x.png', data: Buffer.from('not an image'), type: 'image/png' }]),
  });
  assert.equal(bad.status, 422);

  const photos = await org.req('GET', `/api/animals/${f.animalId}/photos`);
  assert.equal(photos.body.results.length, 1);
  assert.equal(photos.body.results[0].is_public, false);
  const madeBy = await t.db.query<{ created_by: string }>('SELECT created_by FROM animal_photos WHERE organization_id = $1', [org.id]);
  assert.equal(madeBy[0]?.created_by, `person:${f.personId}`);
  const notes = await org.req('GET', `/api/animals/${f.animalId}/notes`);
  const note = notes.body.results.find((n: { kind: string }) => n.kind === 'foster');
  assert.equal(note.body, 'Pickle ate all her food and played.');
  assert.equal(note.visibility, 'internal');
  assert.equal(note.author, `person:${f.personId}`);

  const queue = await org.req('GET', '/api/portal/foster-updates');
  assert.equal(queue.status, 200, queue.raw);
  assert.equal(queue.body.results.length, 1);
  const u = queue.body.results[0];
  assert.equal(u.animal_name, 'Pickle');
  assert.equal(u.photo_ids.length, 1);
  const approved = await org.req('POST', `/api/portal/foster-updates/${u.id}/approve`, { body: {} });
  assert.equal(approved.status, 200, approved.raw);
  assert.equal(approved.body.status, 'approved');
  assert.equal((await org.req('GET', `/api/animals/${f.animalId}/photos`)).body.results[0].is_public, true);
  assert.equal((await org.req('POST', `/api/portal/foster-updates/${u.id}/decline`, { body: {} })).status, 422);
  assert.equal((await org.req('GET', '/api/portal/foster-updates')).body.results.length, 0);

  const w = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/weights`, {
    cookie: f.cookie,
    form: { weight: '3,2', unit: 'kg' },
  });
  assert.equal(w.status, 303);
  const weights = await org.req('GET', `/api/animals/${f.animalId}/weights`);
  assert.equal(Number(weights.body.results[0].weight), 3.2);
  assert.equal(weights.body.results[0].recorded_by, `person:${f.personId}`);
  assert.equal(
    (await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/weights`, { cookie: f.cookie, form: { weight: '-1' } })).status,
    422,
  );

  const m = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/medications`, {
    cookie: f.cookie,
    form: { name: 'Metacam', dose: '0.5 mL', notes: 'with food' },
  });
  assert.equal(m.status, 303, m.body);
  const records = await org.req('GET', `/api/animals/${f.animalId}/medical`);
  assert.equal(records.body.results[0].name, 'Metacam');
  assert.equal(records.body.results[0].kind, 'treatment');

  const r = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/requests`, {
    cookie: f.cookie,
    form: { kind: 'supplies', details: 'Kitten food, 2 bags' },
  });
  assert.equal(r.status, 303);
  const tasks = await org.req('GET', `/api/tasks?linked_type=animal&linked_id=${f.animalId}`);
  assert.equal(tasks.body.results.length, 1);
  assert.match(tasks.body.results[0].title, /^Supplies for Pickle/);
  assert.equal(tasks.body.results[0].notes, 'Kitten food, 2 bags');

  // Staff see the foster's activity in the animal's history, the person as actor.
  const history = await t.db.query<{ action: string; actor: string }>(
    "SELECT action, actor FROM audit_log WHERE organization_id = $1 AND entity_type = 'animal' AND entity_id = $2",
    [org.id, f.animalId],
  );
  for (const action of ['portal_update', 'portal_request'])
    assert.ok(
      history.some((h) => h.action === action && h.actor === `person:${f.personId}`),
      action,
    );
});

async function shiftWindow(org: Awaited<ReturnType<typeof makeOrg>>, capacity: number, roleId?: string): Promise<string> {
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(8, 0, 0, 0);
  const end = new Date(start.getTime() + 12 * 3_600_000);
  const s = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Dog walking', starts_at: start.toISOString(), ends_at: end.toISOString() },
  });
  assert.equal(s.status, 201, s.raw);
  const w = await org.req('POST', `/api/shifts/schedules/${s.body.id}/windows`, {
    body: {
      starts_at: new Date(start.getTime() + 3_600_000).toISOString(),
      ends_at: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
      capacity,
      ...(roleId ? { role_id: roleId } : {}),
    },
  });
  assert.equal(w.status, 201, w.raw);
  return w.body.id;
}

test('a volunteer: shifts of qualified roles only, book and cancel by the staff rules, capacity exact when booked at once', async () => {
  const org = await makeOrg(t);
  const vol = await makePerson(org, { roles: ['volunteer'] });
  const cookie = await signInByInvitation(t, org, vol);
  const qual = await org.req('POST', '/api/shifts/qualifications', { body: { name: 'Dog handling' } });
  assert.equal(qual.status, 201, qual.raw);
  const role = await org.req('POST', '/api/shifts/roles', { body: { name: 'Walker', required_qualification_ids: [qual.body.id] } });
  assert.equal(role.status, 201, role.raw);
  const open = await shiftWindow(org, 2);
  const needsQual = await shiftWindow(org, 2, role.body.id);
  const page = await portalReq(t, org, 'GET', '/portal/shifts', { cookie });
  assert.equal(page.status, 200);
  assert.match(page.body, new RegExp(`/portal/shifts/${open}/book`));
  assert.doesNotMatch(page.body, new RegExp(needsQual));
  assert.equal((await portalReq(t, org, 'POST', `/portal/shifts/${needsQual}/book`, { cookie, form: {} })).status, 404);
  // The volunteer's qualifications, and what the next role needs.
  assert.match(page.body, /No qualification recorded yet/);
  assert.match(page.body, /Walker<\/span><br><span class="muted">Needs Dog handling/);
  const grant = await org.req('POST', `/api/shifts/volunteers/${vol}/qualifications`, { body: { qualification_id: qual.body.id } });
  assert.equal(grant.status, 201, grant.raw);
  const qualified = await portalReq(t, org, 'GET', '/portal/shifts', { cookie });
  assert.match(qualified.body, /Dog handling<\/span><br><span class="muted">Since /);
  assert.match(qualified.body, /You are qualified for every role/);
  await org.req('DELETE', `/api/shifts/volunteers/${vol}/qualifications/${grant.body.id}`);

  const booked = await portalReq(t, org, 'POST', `/portal/shifts/${open}/book`, { cookie, form: {} });
  assert.equal(booked.status, 303, booked.body);
  const twice = await portalReq(t, org, 'POST', `/portal/shifts/${open}/book`, { cookie, form: {} });
  assert.equal(twice.status, 422);
  const list = await org.req('GET', `/api/shifts/bookings?person_id=${vol}`);
  assert.equal(list.body.results.length, 1);
  const bookingId = list.body.results[0].id;
  const mine = await portalReq(t, org, 'GET', '/portal/shifts', { cookie });
  assert.match(mine.body, new RegExp(`/portal/bookings/${bookingId}/cancel`));
  const cancelled = await portalReq(t, org, 'POST', `/portal/bookings/${bookingId}/cancel`, { cookie, form: {} });
  assert.equal(cancelled.status, 303);
  assert.equal((await org.req('GET', `/api/shifts/bookings/${bookingId}`)).body.status, 'cancelled');

  // The calendar feed of the volunteer's bookings.
  await portalReq(t, org, 'POST', `/portal/shifts/${open}/book`, { cookie, form: {} });
  assert.equal((await portalReq(t, org, 'POST', '/portal/shifts/calendar', { cookie, form: {} })).status, 303);
  const withFeed = await portalReq(t, org, 'GET', '/portal/shifts', { cookie });
  const feed = /\/api\/shifts\/feeds\/[A-Za-z0-9]{40}\.ics/.exec(withFeed.body)?.[0];
  assert.ok(feed, 'the shifts page gives the calendar address');
  const ics = await t.app.inject({ method: 'GET', url: feed, headers: { host: org.host } });
  assert.equal(ics.statusCode, 200);
  assert.match(ics.body, /BEGIN:VEVENT/);
  assert.match(ics.body, /Dog walking/);
  const firstBooking = (await org.req('GET', `/api/shifts/bookings?person_id=${vol}&status=booked`)).body.results[0].id;
  await portalReq(t, org, 'POST', `/portal/bookings/${firstBooking}/cancel`, { cookie, form: {} });

  // Another volunteer cannot cancel this one's booking.
  const other = await makePerson(org, { roles: ['volunteer'] });
  const otherCookie = await signInByInvitation(t, org, other);
  await portalReq(t, org, 'POST', `/portal/shifts/${open}/book`, { cookie, form: {} });
  const again = (await org.req('GET', `/api/shifts/bookings?person_id=${vol}&status=booked`)).body.results[0].id;
  assert.equal((await portalReq(t, org, 'POST', `/portal/bookings/${again}/cancel`, { cookie: otherCookie, form: {} })).status, 404);
  assert.equal((await org.req('GET', `/api/shifts/bookings/${again}`)).body.status, 'booked');

  // Five volunteers at once on a one-place shift: exactly one is booked.
  const one = await shiftWindow(org, 1);
  const cookies = await Promise.all(
    Array.from({ length: 5 }, async () => signInByInvitation(t, org, await makePerson(org, { roles: ['volunteer'] }))),
  );
  const answers = await Promise.all(cookies.map((c) => portalReq(t, org, 'POST', `/portal/shifts/${one}/book`, { cookie: c, form: {} })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [303, 409, 409, 409, 409]);
  const count = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM shift_bookings WHERE organization_id = $1 AND window_id = $2 AND status = 'booked'",
    [org.id, one],
  );
  assert.equal(count[0]?.n, 1);

  // A person who is not a volunteer has no shifts.
  const notVol = await signInByInvitation(t, org, await makePerson(org));
  assert.equal((await portalReq(t, org, 'GET', '/portal/shifts', { cookie: notVol })).status, 404);
});

async function withUpdate(org: Awaited<ReturnType<typeof makeOrg>>): Promise<string> {
  const f = await fosterInCare(t, org);
  const up = await portalReq(t, org, 'POST', `/portal/animals/${f.animalId}/updates`, {
    cookie: f.cookie,
    multipart: multipartBody({ body: 'All well.' }),
  });
  assert.equal(up.status, 303, up.body);
  const row = await t.db.query<{ id: string }>('SELECT id FROM portal_updates WHERE organization_id = $1 AND animal_id = $2', [
    org.id,
    f.animalId,
  ]);
  return row[0]?.id ?? '';
}

securitySuite('portal (staff routes)', () => t, [
  { method: 'POST', path: async (org) => `/api/people/${await makePerson(org)}/portal-invitations`, area: 'people', level: 'write' },
  { method: 'POST', path: () => '/api/people/portal-invitations', body: { person_ids: ['per_x'] }, area: 'people', level: 'write' },
  {
    method: 'GET',
    path: async (org) => {
      const p = await makePerson(org);
      await org.req('POST', `/api/people/${p}/portal-invitations`);
      return `/api/people/${p}/portal-account`;
    },
    area: 'people',
    level: 'read',
  },
  {
    method: 'PUT',
    path: async (org) => {
      const p = await makePerson(org);
      await org.req('POST', `/api/people/${p}/portal-invitations`);
      return `/api/people/${p}/portal-account/status`;
    },
    body: { enabled: false },
    area: 'people',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/portal/foster-updates', seed: withUpdate, area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (org) => `/api/portal/foster-updates/${await withUpdate(org)}/approve`,
    body: {},
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/portal/foster-updates/${await withUpdate(org)}/decline`,
    body: {},
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/settings/portal',
    area: 'settings',
    level: 'read',
    singleton: true,
    seed: async (org) => {
      const welcome = `Welcome to ${org.slug}`;
      const res = await org.req('PUT', '/api/settings/portal', {
        body: { foster: true, volunteer: true, adopter: true, donor: true, welcome },
      });
      assert.equal(res.status, 200, res.raw);
      return welcome;
    },
  },
  {
    method: 'PUT',
    path: () => '/api/settings/portal',
    body: { foster: true, volunteer: false, adopter: true, donor: true, welcome: '' },
    area: 'settings',
    level: 'admin',
  },
  { method: 'GET', path: async (org) => `/api/people/${await makePerson(org)}/volunteer-status`, area: 'people', level: 'read' },
  {
    method: 'PUT',
    path: async (org) => `/api/people/${await makePerson(org)}/volunteer-status`,
    body: { status: 'approved' },
    area: 'people',
    level: 'write',
  },
]);

test('a foster answers offered placements and says when they can take animals; a started placement invites the foster', async () => {
  const org = await makeOrg(t);
  const f = await fosterInCare(t, org);
  const offerOne = async (name: string) => {
    const a = await org.req('POST', '/api/v1/animals', { body: { name, species: 'cat', status: 'Available', intakeDate: '2026-01-02' } });
    const o = await org.req('POST', `/api/animals/foster-homes/${f.homeId}/assignments`, { body: { animal_id: a.body.id } });
    assert.equal(o.status, 201, o.raw);
    return o.body.id as string;
  };
  const first = await offerOne('Biscuit');
  const second = await offerOne('Crumble');
  const home = await portalReq(t, org, 'GET', '/portal/', { cookie: f.cookie });
  assert.match(home.body, /Biscuit/);
  assert.match(home.body, new RegExp(`/portal/placements/${first}/accept`));
  assert.equal((await portalReq(t, org, 'POST', `/portal/placements/${first}/accept`, { cookie: f.cookie, form: {} })).status, 303);
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${first}`)).body.status, 'accepted');
  assert.equal((await portalReq(t, org, 'POST', `/portal/placements/${second}/decline`, { cookie: f.cookie, form: {} })).status, 303);
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${second}`)).body.status, 'declined');
  // Answered already, or another home's offer: refused.
  assert.equal((await portalReq(t, org, 'POST', `/portal/placements/${first}/accept`, { cookie: f.cookie, form: {} })).status, 404);
  const other = await fosterInCare(t, org, 'Dumpling');
  const theirs = await t.db.query<{ id: string }>(
    `SELECT fa.id FROM foster_assignments fa JOIN foster_homes h ON h.organization_id = fa.organization_id AND h.id = fa.foster_home_id
      WHERE fa.organization_id = $1 AND h.person_id = $2`,
    [org.id, other.personId],
  );
  assert.equal(
    (await portalReq(t, org, 'POST', `/portal/placements/${theirs[0]?.id}/decline`, { cookie: f.cookie, form: {} })).status,
    404,
  );

  const saved = await portalReq(t, org, 'POST', '/portal/availability', {
    cookie: f.cookie,
    form: { status: 'paused', capacity: '4', species: 'Cat, rabbit' },
  });
  assert.equal(saved.status, 303);
  const h = await org.req('GET', `/api/animals/foster-homes/${f.homeId}`);
  const fh = h.body.foster_home ?? h.body;
  assert.deepEqual([fh.status, fh.capacity, fh.species_preferences], ['paused', 4, ['cat', 'rabbit']]);
  const tooFew = await portalReq(t, org, 'POST', '/portal/availability', { cookie: f.cookie, form: { status: 'active', capacity: '0' } });
  assert.equal(tooFew.status, 422);
  assert.match(tooFew.body, /cannot be below/);

  // A new foster's first placement starts: an invitation is emailed without staff asking.
  const newcomer = await makePerson(org, { email: 'new.foster@example.org' });
  const nh = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: newcomer, capacity: 1 } });
  const kitten = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Mochi', species: 'cat', status: 'Available', intakeDate: '2026-01-02' },
  });
  const offer = await org.req('POST', `/api/animals/foster-homes/${nh.body.foster_home.id}/assignments`, {
    body: { animal_id: kitten.body.id },
  });
  await org.req('POST', `/api/animals/foster-assignments/${offer.body.id}/start`, { body: {} });
  await runDueJobs(t.ctx, { orgId: org.id });
  const account = await org.req('GET', `/api/people/${newcomer}/portal-account`);
  assert.equal(account.status, 200, account.raw);
  assert.equal(account.body.status, 'invited');
  const mail = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM comm_messages WHERE organization_id = $1 AND recipient_address = 'new.foster@example.org'",
    [org.id],
  );
  assert.equal(mail[0]?.n, 1);
});

/** Emails logged to one address in the organization. */
async function mailsTo(orgId: string, address: string): Promise<number> {
  const rows = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM comm_messages WHERE organization_id = $1 AND recipient_address = $2',
    [orgId, address],
  );
  return rows[0]?.n ?? 0;
}

test('a volunteer applicant waits for approval; approving invites them to the portal when the volunteer part is on', async () => {
  const org = await makeOrg(t);
  // A volunteer application from the public form, made a person by staff: a volunteer, applied.
  const form = await org.req('POST', '/api/forms', {
    body: {
      name: 'Volunteer with us',
      slug: 'volunteer',
      purpose: 'volunteer_application',
      status: 'published',
      min_fill_seconds: 0,
      fields: [
        { key: 'first_name', label: 'First name', type: 'text', required: true },
        { key: 'last_name', label: 'Last name', type: 'text', required: true },
        { key: 'email', label: 'Email', type: 'email', required: true },
      ],
    },
  });
  assert.equal(form.status, 201, form.raw);
  const started = (await org.req('GET', '/forms/volunteer/start', { key: null })).body.started;
  const sent = await org.req('POST', '/forms/volunteer/submit', {
    key: null,
    body: { answers: { first_name: 'Vera', last_name: 'Quist', email: 'vera@example.org' }, started },
  });
  assert.equal(sent.status, 201, sent.raw);
  const sub = (await org.req('GET', `/api/forms/submissions?form_id=${form.body.id}`)).body.results[0];
  const conv = await org.req('POST', `/api/forms/submissions/${sub.id}/convert`, { body: {} });
  assert.equal(conv.status, 200, conv.raw);
  const vera = conv.body.person_id as string;
  const status = await org.req('GET', `/api/people/${vera}/volunteer-status`);
  assert.deepEqual(status.body, { person_id: vera, volunteer: true, status: 'applied' });

  // An applicant invited by staff signs in, but has no shifts part yet.
  const cookie = await signInByInvitation(t, org, vera);
  assert.equal((await portalReq(t, org, 'GET', '/portal/shifts', { cookie })).status, 404);
  assert.doesNotMatch((await portalReq(t, org, 'GET', '/portal/', { cookie })).body, /href="\/portal\/shifts"/);
  const approved = await org.req('PUT', `/api/people/${vera}/volunteer-status`, { body: { status: 'approved' } });
  assert.equal(approved.status, 200, approved.raw);
  assert.equal(approved.body.status, 'approved');
  assert.equal((await portalReq(t, org, 'GET', '/portal/shifts', { cookie })).status, 200);
  assert.match((await portalReq(t, org, 'GET', '/portal/', { cookie })).body, /href="\/portal\/shifts"/);
  // The person's activity names the change; she had an account, so no second invitation is sent.
  const act = await org.req('GET', `/api/activity?entity_type=person&entity_id=${vera}&limit=100`);
  const change = act.body.results.find((e: any) => e.changes?.volunteer_status?.after === 'approved');
  assert.deepEqual(change.changes.volunteer_status, { before: 'applied', after: 'approved' });
  const before = await mailsTo(org.id, 'vera@example.org');
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal(await mailsTo(org.id, 'vera@example.org'), before);

  // Approving a person without an account (and without the role: they gain it) invites them, in the background.
  const noel = await makePerson(org, { firstName: 'Noel', email: 'noel@example.org' });
  const made = await org.req('PUT', `/api/people/${noel}/volunteer-status`, { body: { status: 'approved' } });
  assert.deepEqual(made.body, { person_id: noel, volunteer: true, status: 'approved' });
  assert.deepEqual((await org.req('GET', `/api/v1/people/${noel}`)).body.roles, ['volunteer']);
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal((await org.req('GET', `/api/people/${noel}/portal-account`)).body.status, 'invited');
  assert.equal(await mailsTo(org.id, 'noel@example.org'), 1);
  // The same status again changes nothing and sends nothing more.
  const again = await org.req('PUT', `/api/people/${noel}/volunteer-status`, { body: { status: 'approved' } });
  assert.equal(again.status, 200);
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal(await mailsTo(org.id, 'noel@example.org'), 1);
  // A volunteer staff gave the role directly counts as approved.
  const direct = await makePerson(org, { roles: ['volunteer'] });
  assert.equal((await org.req('GET', `/api/people/${direct}/volunteer-status`)).body.status, 'approved');
  assert.equal((await org.req('GET', `/api/people/${await makePerson(org)}/volunteer-status`)).body.status, null);

  // With the volunteer part off, approving invites nobody.
  await org.req('PUT', '/api/settings/portal', { body: { foster: true, volunteer: false, adopter: true, donor: true, welcome: '' } });
  const olga = await makePerson(org, { email: 'olga@example.org' });
  await org.req('PUT', `/api/people/${olga}/volunteer-status`, { body: { status: 'applied' } });
  await org.req('PUT', `/api/people/${olga}/volunteer-status`, { body: { status: 'approved' } });
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal((await org.req('GET', `/api/people/${olga}/portal-account`)).status, 404);

  // Bad input changes nothing; another organization's person is not found.
  const bad = await org.req('PUT', `/api/people/${noel}/volunteer-status`, { body: { status: 'maybe' } });
  assert.equal(bad.status, 422);
  assert.equal((await org.req('GET', `/api/people/${noel}/volunteer-status`)).body.status, 'approved');
  const other = await makeOrg(t);
  assert.equal((await other.req('PUT', `/api/people/${noel}/volunteer-status`, { body: { status: 'applied' } })).status, 404);
});

test('a donor: their own gifts by year and a year-end statement in PDF; nobody else sees them', async () => {
  const org = await makeOrg(t);
  const donor = await makePerson(org, { firstName: 'Dana', roles: ['donor'] });
  const other = await makePerson(org, { roles: ['donor'] });
  for (const [who, amount, date] of [
    [donor, 25, '2025-03-01'],
    [donor, 100.5, '2025-11-20'],
    [donor, 40, '2026-02-10'],
    [other, 999, '2025-05-05'],
  ] as const) {
    const g = await org.req('POST', '/api/v1/donations', { body: { donorId: who, amount, type: 'one-off', date, paymentMethod: 'card' } });
    assert.equal(g.status, 201, g.raw);
  }
  const cookie = await signInByInvitation(t, org, donor);
  const home = await portalReq(t, org, 'GET', '/portal/', { cookie });
  assert.match(home.body, /Your gifts and year-end statements/);
  const gifts = await portalReq(t, org, 'GET', '/portal/gifts', { cookie });
  assert.equal(gifts.status, 200);
  assert.match(gifts.body, /\$125\.50/);
  assert.match(gifts.body, /\$40\.00/);
  assert.doesNotMatch(gifts.body, /\$999\.00/);
  const pdf = await portalReq(t, org, 'GET', '/portal/gifts/statement/2025', { cookie });
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.ok(pdf.body.startsWith('%PDF'));
  assert.equal((await portalReq(t, org, 'GET', '/portal/gifts/statement/2019', { cookie })).status, 404);
  // A person who is not a donor has no gifts page.
  const notDonor = await signInByInvitation(t, org, await makePerson(org));
  assert.equal((await portalReq(t, org, 'GET', '/portal/gifts', { cookie: notDonor })).status, 404);
});

test('an adopter sees only the records of their adopted animal that the organization shares', async () => {
  const org = await makeOrg(t);
  const adopter = await makePerson(org, { firstName: 'Ada' });
  const cat = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Pumpkin', species: 'cat', status: 'Available', intakeDate: '2026-01-02' },
  });
  assert.equal(cat.status, 201, cat.raw);
  const chip = await org.req('POST', `/api/animals/${cat.body.id}/microchips`, { body: { number: '276098106123456' } });
  assert.equal(chip.status, 201, chip.raw);
  const app = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: adopter, animal_ids: [cat.body.id] } });
  assert.equal(app.status, 201, app.raw);
  const stages = (await org.req('GET', '/api/animals/application-stages')).body.results as { id: string; name: string }[];
  const approved = stages.find((x) => x.name === 'Approved');
  assert.ok(approved);
  assert.equal(
    (await org.req('PATCH', `/api/animals/adoption-applications/${app.body.id}`, { body: { stage_id: approved.id } })).status,
    200,
  );
  const done = await org.req('POST', `/api/animals/adoption-applications/${app.body.id}/finalize`, { body: {} });
  assert.equal(done.status, 201, done.raw);
  const cookie = await signInByInvitation(t, org, adopter);

  const all = await portalReq(t, org, 'GET', '/portal/adoptions', { cookie });
  assert.equal(all.status, 200);
  for (const shown of [/Pumpkin/, /276098106123456/, /Spayed or neutered/, /Vaccinations/]) assert.match(all.body, shown);
  const settings = await org.req('GET', '/api/settings/portal');
  assert.deepEqual([settings.body.share_vaccinations, settings.body.share_microchip, settings.body.share_spay_neuter], [true, true, true]);

  const base = { foster: true, volunteer: true, adopter: true, donor: true, welcome: '' };
  const off = await org.req('PUT', '/api/settings/portal', { body: { ...base, share_microchip: false, share_vaccinations: false } });
  assert.equal(off.status, 200, off.raw);
  assert.deepEqual([off.body.share_vaccinations, off.body.share_microchip, off.body.share_spay_neuter], [false, false, true]);
  const some = await portalReq(t, org, 'GET', '/portal/adoptions', { cookie });
  assert.match(some.body, /Pumpkin/);
  assert.match(some.body, /Spayed or neutered/);
  assert.doesNotMatch(some.body, /276098106123456|Microchip|Vaccinations/);

  // A save that leaves the flags out keeps them; a flag that is not true or false is refused.
  const kept = await org.req('PUT', '/api/settings/portal', { body: { ...base, share_spay_neuter: false } });
  assert.deepEqual([kept.body.share_vaccinations, kept.body.share_microchip, kept.body.share_spay_neuter], [false, false, false]);
  const none = await portalReq(t, org, 'GET', '/portal/adoptions', { cookie });
  assert.doesNotMatch(none.body, /Spayed or neutered|Microchip|Vaccinations/);
  const bad = await org.req('PUT', '/api/settings/portal', { body: { ...base, share_microchip: 'yes' } });
  assert.ok([400, 422].includes(bad.status), bad.raw);
});

test('an adopter: their applications at the stage names the organization gives; nobody else sees them', async () => {
  const org = await makeOrg(t);
  const stage = await org.req('POST', '/api/animals/application-stages', { body: { name: 'Home visit booked', kind: 'open' } });
  assert.equal(stage.status, 201, stage.raw);
  const adopter = await makePerson(org, { firstName: 'Ada' });
  const cat = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Marmalade', species: 'cat', status: 'Available', intakeDate: '2026-01-02' },
  });
  const made = await org.req('POST', '/api/animals/adoption-applications', {
    body: { person_id: adopter, animal_ids: [cat.body.id], stage_id: stage.body.id },
  });
  assert.equal(made.status, 201, made.raw);
  const cookie = await signInByInvitation(t, org, adopter);
  assert.match((await portalReq(t, org, 'GET', '/portal/', { cookie })).body, /Your applications and your animals/);
  const page = await portalReq(t, org, 'GET', '/portal/adoptions', { cookie });
  assert.equal(page.status, 200);
  assert.match(page.body, /Home visit booked/);
  // Someone without an application, and another person's contract: nothing.
  const stranger = await signInByInvitation(t, org, await makePerson(org));
  assert.equal((await portalReq(t, org, 'GET', '/portal/adoptions', { cookie: stranger })).status, 404);
  assert.equal((await portalReq(t, org, 'POST', '/portal/contracts/sgc_nothing/sign', { cookie, form: {} })).status, 404);
  // The organization turns the adopter part off: it shows to nobody.
  await org.req('PUT', '/api/settings/portal', { body: { foster: true, volunteer: true, adopter: false, donor: true, welcome: '' } });
  assert.equal((await portalReq(t, org, 'GET', '/portal/adoptions', { cookie })).status, 404);
});

test('contact preferences: a person chooses what the organization emails them about', async () => {
  const org = await makeOrg(t);
  const p = await makePerson(org, { roles: ['donor'] });
  const cookie = await signInByInvitation(t, org, p);
  const acc = await portalReq(t, org, 'GET', '/portal/account', { cookie });
  assert.match(acc.body, /What we email you about/);
  assert.match(acc.body, /name="newsletter" checked/);
  const saved = await portalReq(t, org, 'POST', '/portal/account/preferences', { cookie, form: { newsletter: 'on' } });
  assert.equal(saved.status, 200);
  assert.match(saved.body, /Your choices are saved/);
  const prefs = await org.req('GET', `/api/communications/people/${p}/preferences`);
  const out = Object.fromEntries(prefs.body.preferences.map((x: { category: string; opted_out: boolean }) => [x.category, x.opted_out]));
  assert.deepEqual(out, {
    transactional: false,
    adoption_updates: true,
    fundraising: true,
    volunteer_news: true,
    foster_updates: true,
    newsletter: false,
  });
  const audit = await t.db.query<{ actor: string }>("SELECT actor FROM audit_log WHERE organization_id = $1 AND action = 'opt_out'", [
    org.id,
  ]);
  assert.ok(audit.length === 4 && audit.every((a) => a.actor === `person:${p}`));
});
