import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape } from '../../../test/security.ts';
import { inboundBench, type FakeProvider, type InboundBench } from './testing.ts';
import { sendQueuedMail } from './outbound.ts';

let t: TestApp;
let good: FakeProvider;
let bench: InboundBench;
before(async () => {
  bench = await inboundBench();
  ({ app: t, provider: good } = bench);
});
after(async () => bench.close());

let seq = 0;
const P = (text: string) => ({ type: 'p', runs: [{ text }] });
const mail = (m: Record<string, unknown>) => bench.mail(m);
async function person(org: TestOrg, email: string) {
  const r = await org.req('POST', '/api/v1/people', { body: { firstName: 'Rita', lastName: 'Reply', email } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}
const drain = async (org: TestOrg) => {
  await sendQueuedMail(t.ctx, org.id, { providers: good.url });
};

test(
  'inbound: mail to an inbox becomes a conversation; unknown and ' + 'retired inboxes refused at RCPT; person suggested then confirmed',
  async () => {
    const org = await makeOrg(t);
    const domain = `${org.slug}.localhost`;
    const inbox = await org.req('POST', '/api/communications/inboxes', { body: { name: 'adopt' } });
    const sender = `rita${seq++}@example.org`;
    const pid = await person(org, sender);
    const info = await mail({ from: sender, to: `adopt@${domain}`, subject: 'About Biscuit', messageId: `<first-${seq}@example.org>` });
    assert.deepEqual(info.accepted, [`adopt@${domain}`]);

    await assert.rejects(mail({ from: sender, to: `nobody@${domain}`, subject: 'x' }), (e: any) => e.responseCode === 550);
    await org.req('POST', `/api/communications/inboxes/${inbox.body.id}/retire`);
    await assert.rejects(mail({ from: sender, to: `adopt@${domain}`, subject: 'x' }), (e: any) => e.responseCode === 550);
    await assert.rejects(mail({ from: sender, to: 'adopt@no-such-org.localhost', subject: 'x' }), (e: any) => e.responseCode === 550);

    const convs = await org.req('GET', '/api/communications/conversations');
    assert.equal(convs.body.results.length, 1);
    const c = convs.body.results[0];
    assert.equal(c.subject, 'About Biscuit');
    assert.equal(c.inbox_id, inbox.body.id);
    assert.equal(c.suggested_person_id, pid);
    assert.equal(c.person_id, null);
    assert.equal(c.contact_address, sender);
    const log = await org.req('GET', '/api/communications/messages?direction=inbound');
    assert.equal(log.body.results.length, 1);
    assert.equal(log.body.results[0].status, 'received');
    assert.equal(log.body.results[0].payload_metadata.thread_id, c.id);

    // an unconfirmed suggestion is not used by fills
    const tpl = await org.req('POST', '/api/communications/templates', {
      body: { key: 'reply.hi', status: 'active', subject_template: 'Hi {{first_name}}', body_template: 'x' },
    });
    const f1 = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, { body: { conversation_id: c.id } });
    assert.deepEqual(f1.body.unfilled, ['first_name']);
    const conf = await org.req('POST', `/api/communications/conversations/${c.id}/confirm-person`);
    assert.equal(conf.status, 200, JSON.stringify(conf.body));
    assert.equal(conf.body.person_id, pid);
    assert.equal(conf.body.person_confirmed, true);
    const f2 = await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, { body: { conversation_id: c.id } });
    assert.equal(f2.body.subject, 'Hi Rita');
    assert.equal(f2.body.person_id, pid);
    assertErrorShape(
      '/api/x',
      await org.req('POST', `/api/communications/templates/${tpl.body.id}/fill`, { body: { conversation_id: 'cnv_nope' } }),
      404,
    );

    // bare organization address goes to the default inbox
    await mail({ from: sender, to: `${org.slug}@localhost`, subject: 'General question' });
    const all = await org.req('GET', '/api/communications/conversations');
    const general = all.body.results.find((x: any) => x.subject === 'General question');
    const inboxes = await org.req('GET', '/api/communications/inboxes');
    assert.equal(general.inbox_id, inboxes.body.results.find((i: any) => i.is_default).id);
  },
);

test('conversations: reply goes out through the queue threaded, the answer threads back; assign and close', async () => {
  const org = await makeOrg(t);
  const domain = `${org.slug}.localhost`;
  const sender = `sam${seq++}@example.org`;
  await mail({ from: sender, to: `hello@${domain}`, subject: 'Volunteering', messageId: `<vol-${seq}@example.org>` });
  const c = (await org.req('GET', '/api/communications/conversations')).body.results[0];
  const r = await org.req('POST', `/api/communications/conversations/${c.id}/reply`, {
    body: { body_blocks: [P('Thanks, we will call you.')] },
    headers: { 'idempotency-key': `r-${seq}` },
  });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const m = r.body.results[0];
  assert.equal(m.payload_metadata.thread_id, c.id);
  assert.equal(m.subject, 'Re: Volunteering');
  assert.equal(m.recipient_address, sender);
  const before = good.received.length;
  await drain(org);
  assert.equal(good.received.length, before + 1);
  const out = good.received[before];
  assert.equal(out?.inReplyTo, `<vol-${seq}@example.org>`);
  assert.equal(out?.from?.value[0]?.address, `hello@${domain}`);
  const detail = await org.req('GET', `/api/communications/conversations/${c.id}`);
  assert.equal(detail.body.messages.length, 2);
  assert.match(detail.body.messages[1].body_text, /we will call you/);

  // the answer to our reply threads back into the same conversation
  await mail({ from: sender, to: `hello@${domain}`, subject: 'Re: Volunteering', inReplyTo: out?.messageId, references: [out?.messageId] });
  const again = await org.req('GET', `/api/communications/conversations/${c.id}`);
  assert.equal(again.body.messages.length, 3);
  assert.equal((await org.req('GET', '/api/communications/conversations')).body.results.length, 1);

  const as = await org.req('POST', `/api/communications/conversations/${c.id}/assign`, { body: { assigned_to: 'Maya' } });
  assert.equal(as.body.assigned_to, 'Maya');
  const cl = await org.req('POST', `/api/communications/conversations/${c.id}/close`);
  assert.equal(cl.body.status, 'closed');
  assert.equal((await org.req('GET', '/api/communications/conversations?status=closed')).body.results.length, 1);
});

test('a reply to a message sent outside any conversation starts one in the default inbox', async () => {
  const org = await makeOrg(t);
  const addr = `don${seq++}@example.org`;
  const pid = await person(org, addr);
  const s = await org.req('POST', '/api/communications/messages', {
    body: { person_id: pid, subject: 'Thank you for your gift', body_blocks: [P('x')], idempotency_key: `g-${seq}` },
  });
  assert.equal(s.status, 202);
  const before = good.received.length;
  await drain(org);
  const sent = good.received[before];
  assert.equal(sent?.replyTo?.value[0]?.address, `hello@${org.slug}.localhost`);
  await mail({
    from: addr,
    to: `hello@${org.slug}.localhost`,
    subject: 'Re: Thank you for your gift',
    inReplyTo: sent?.messageId,
    references: [sent?.messageId],
  });
  const convs = (await org.req('GET', '/api/communications/conversations')).body.results;
  assert.equal(convs.length, 1);
  assert.equal(convs[0].subject, 'Thank you for your gift');
  const detail = await org.req('GET', `/api/communications/conversations/${convs[0].id}`);
  assert.deepEqual(
    detail.body.messages.map((x: any) => x.direction),
    ['outbound', 'inbound'],
  );
});

test('restricted inbox: its conversations are hidden from keys off the access list', async () => {
  const org = await makeOrg(t);
  const inbox = await org.req('POST', '/api/communications/inboxes', { body: { name: 'board' } });
  await org.req('PATCH', `/api/communications/inboxes/${inbox.body.id}`, {
    body: { is_restricted: true, access_list: { roles: ['admin'] } },
  });
  await mail({ from: 'x@example.org', to: `board@${org.slug}.localhost`, subject: 'Private' });
  const c = (await org.req('GET', '/api/communications/conversations')).body.results[0];
  assert.equal(c.subject, 'Private');
  assert.equal((await org.req('GET', '/api/communications/conversations', { key: org.keys.staff })).body.results.length, 0);
  assertErrorShape('/api/x', await org.req('GET', `/api/communications/conversations/${c.id}`, { key: org.keys.staff }), 404);
});

const mkConv = async (o: TestOrg) => {
  await mail({ from: `sec${seq++}@example.org`, to: `hello@${o.slug}.localhost`, subject: 'Security' });
  return `/api/communications/conversations/${(await o.req('GET', '/api/communications/conversations')).body.results[0].id}`;
};
securitySuite('communications conversations', () => t, [
  {
    method: 'GET',
    path: () => '/api/communications/conversations',
    seed: async (o) => (await mkConv(o)).split('/').pop() ?? '',
    area: 'communications',
    level: 'read',
  },
  { method: 'GET', path: mkConv, area: 'communications', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `${await mkConv(o)}/reply`,
    body: { body_blocks: [P('x')], idempotency_key: 'sec' },
    area: 'communications',
    level: 'write',
  },
  { method: 'POST', path: async (o) => `${await mkConv(o)}/assign`, body: { assigned_to: 'x' }, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkConv(o)}/close`, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkConv(o)}/confirm-person`, body: {}, area: 'communications', level: 'write' },
]);

test("postmaster@ and abuse@ an organization's domain are accepted (RFC 5321, RFC 2142) and land in the default inbox", async () => {
  const org = await makeOrg(t);
  const domain = `${org.slug}.localhost`;
  for (const local of ['postmaster', 'abuse', 'Postmaster']) {
    const info = await mail({ from: `mta${seq++}@example.org`, to: `${local}@${domain}`, subject: `To ${local}` });
    assert.deepEqual(info.accepted, [`${local}@${domain}`]);
  }
  const inboxes = (await org.req('GET', '/api/communications/inboxes')).body.results;
  const def = inboxes.find((i: { is_default: boolean }) => i.is_default);
  assert.equal(def.name, 'hello');
  assert.ok(!inboxes.some((i: { name: string }) => i.name === 'postmaster' || i.name === 'abuse'), 'no inbox is made for them');
  const convs = (await org.req('GET', '/api/communications/conversations')).body.results;
  assert.deepEqual(convs.map((c: { subject: string }) => c.subject).sort(), ['To Postmaster', 'To abuse', 'To postmaster']);
  assert.ok(convs.every((c: { inbox_id: string }) => c.inbox_id === def.id));
  await assert.rejects(
    mail({ from: 'x@example.org', to: 'postmaster@no-such-org.localhost', subject: 'x' }),
    (e: any) => e.responseCode === 550,
  );
});

test(
  'confirm-person is one transaction: a failure after the conversation changed leaves the conversation, its messages and the ' +
    'audit log as they were',
  async () => {
    const org = await makeOrg(t);
    const sender = `ada${seq++}@example.org`;
    const pid = await person(org, sender);
    await mail({ from: sender, to: `hello@${org.slug}.localhost`, subject: 'Atomic' });
    const c = (await org.req('GET', '/api/communications/conversations')).body.results[0];
    const audits = async () =>
      Number(
        (
          await t.db.query<{ n: string }>("SELECT count(*) AS n FROM audit_log WHERE organization_id = $1 AND action = 'confirm_person'", [
            org.id,
          ])
        )[0]?.n,
      );
    // A trigger refuses the second write (the received messages) for this conversation only.
    const fn = `comm_fail_${c.id.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
    await t.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF NEW.conversation_id = '${c.id}' AND NEW.person_id IS NOT NULL THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await t.db.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON comm_messages FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const failed = await org.req('POST', `/api/communications/conversations/${c.id}/confirm-person`);
      assert.equal(failed.status, 500);
    } finally {
      await t.db.query(`DROP TRIGGER ${fn} ON comm_messages`);
      await t.db.query(`DROP FUNCTION ${fn}()`);
    }
    const after = (await org.req('GET', `/api/communications/conversations/${c.id}`)).body;
    assert.equal(after.conversation.person_confirmed, false, 'the conversation is unchanged');
    assert.equal(after.conversation.person_id, null);
    const inbound = (await org.req('GET', '/api/communications/messages?direction=inbound')).body.results[0];
    assert.equal(inbound.person_id, '');
    assert.equal(await audits(), 0, 'no audit row for a change that did not happen');

    const ok = await org.req('POST', `/api/communications/conversations/${c.id}/confirm-person`);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.person_id, pid);
    assert.equal((await org.req('GET', '/api/communications/messages?direction=inbound')).body.results[0].person_id, pid);
    assert.equal(await audits(), 1);
  },
);

test(
  "reply is one transaction: the message, the conversation's activity time and the audit row appear together or not at all, " +
    'and a replay adds none',
  async () => {
    const org = await makeOrg(t);
    await mail({ from: `bo${seq++}@example.org`, to: `hello@${org.slug}.localhost`, subject: 'Together' });
    const c = (await org.req('GET', '/api/communications/conversations')).body.results[0];
    const state = async () => {
      const conv = (
        await t.db.query<{ last_message_at: Date }>(
          'SELECT last_message_at FROM comm_conversations WHERE organization_id = $1 AND id = $2',
          [org.id, c.id],
        )
      )[0];
      const sends = (
        await t.db.query<{ n: string }>("SELECT count(*) AS n FROM audit_log WHERE organization_id = $1 AND action = 'send'", [org.id])
      )[0];
      const msgs = (
        await t.db.query<{ n: string }>(
          "SELECT count(*) AS n FROM comm_messages WHERE organization_id = $1 AND conversation_id = $2 AND direction = 'outbound'",
          [org.id, c.id],
        )
      )[0];
      return { at: conv?.last_message_at.getTime(), audits: Number(sends?.n), messages: Number(msgs?.n) };
    };
    const before = await state();
    const body = { body_blocks: [P('Both or neither.')], idempotency_key: `tog-${seq++}` };
    // A trigger refuses the conversation's update, which comes after the message is logged.
    const fn = `comm_fail_${c.id.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
    await t.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF NEW.id = '${c.id}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await t.db.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON comm_conversations FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      assert.equal((await org.req('POST', `/api/communications/conversations/${c.id}/reply`, { body })).status, 500);
    } finally {
      await t.db.query(`DROP TRIGGER ${fn} ON comm_conversations`);
      await t.db.query(`DROP FUNCTION ${fn}()`);
    }
    assert.deepEqual(await state(), before, 'a failed reply logs no message, keeps the activity time and writes no audit row');

    // The same key then sends (nothing of the failed attempt held it).
    const r = await org.req('POST', `/api/communications/conversations/${c.id}/reply`, { body });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.headers['idempotent-replayed'], undefined);
    const after = await state();
    assert.equal(after.messages, before.messages + 1);
    assert.equal(after.audits, before.audits + 1);
    assert.ok((after.at ?? 0) > (before.at ?? 0), 'the conversation shows new activity');
    const again = await org.req('POST', `/api/communications/conversations/${c.id}/reply`, { body });
    assert.equal(again.status, 202);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(await state(), after, 'a replay changes nothing');
  },
);
