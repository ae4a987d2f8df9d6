import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import nodemailer from 'nodemailer';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { fakeProvider, type FakeProvider } from './testing.ts';
import { startInboundListener, type InboundListener } from './inbound.ts';

// A restricted inbox's mail is read only by its access list, wherever it is read: the message log,
// one message, a conversation. The access list holds only this organization's roles and keys.

let t: TestApp;
let good: FakeProvider;
let listener: InboundListener;
before(async () => {
  good = await fakeProvider({ name: 'good' });
  t = await testApp({ smtpProviders: good.url });
  listener = await startInboundListener(t.db, t.ctx.config, { port: 0, host: '127.0.0.1' });
});
after(async () => {
  await listener.close();
  await t.close();
  await good.close();
});

let seq = 0;
async function mail(m: Record<string, unknown>) {
  const c = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  try {
    return await c.sendMail({ text: 'Hello there', ...m });
  } finally {
    c.close();
  }
}
/** A key with read on Communications, and its key id and role id. */
async function reader(org: TestOrg) {
  const key = await org.keyWith({ communications: 'read' });
  const row = (await org.req('GET', '/api/settings/keys')).body.results.at(-1);
  return { key, keyId: row.id as string, roleId: row.role_id as string };
}

test(
  'restricted inbox: its mail and replies are invisible off the access list (log, one message, conversation), visible on it ' +
    'by key id and by role id',
  async () => {
    const org = await makeOrg(t);
    const outsider = await reader(org);
    const byKey = await reader(org);
    const byRole = await reader(org);
    const inbox = await org.req('POST', '/api/communications/inboxes', { body: { name: 'board' } });
    const set = await org.req('PATCH', `/api/communications/inboxes/${inbox.body.id}`, {
      body: { is_restricted: true, access_list: { roles: [byRole.roleId], key_ids: [byKey.keyId] } },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await mail({ from: `member${seq++}@example.org`, to: `board@${org.slug}.localhost`, subject: 'Private matter' });
    const conv = (await org.req('GET', '/api/communications/conversations')).body.results[0];
    const reply = await org.req('POST', `/api/communications/conversations/${conv.id}/reply`, {
      body: { body_blocks: [{ type: 'p', runs: [{ text: 'Noted.' }] }], idempotency_key: `r-${seq++}` },
    });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    const ids = (await org.req('GET', `/api/communications/conversations/${conv.id}`)).body.messages.map((m: { id: string }) => m.id);
    assert.equal(ids.length, 2, 'the admin sees the inbound message and the reply');
    const allLog = (await org.req('GET', '/api/communications/messages')).body.results.map((m: { id: string }) => m.id);
    for (const id of ids) assert.ok(allLog.includes(id));

    for (const who of [outsider.key, org.keys.staff, org.keys.readOnly]) {
      const log = await org.req('GET', '/api/communications/messages', { key: who });
      assert.equal(log.status, 200);
      for (const id of ids) {
        assert.ok(!log.body.results.some((m: { id: string }) => m.id === id), 'absent from the message log');
        assertErrorShape('/api/communications/messages', await org.req('GET', `/api/communications/messages/${id}`, { key: who }), 404);
      }
      assert.equal((await org.req('GET', '/api/communications/messages?direction=inbound', { key: who })).body.results.length, 0);
      assertErrorShape(
        '/api/communications/conversations',
        await org.req('GET', `/api/communications/conversations/${conv.id}`, { key: who }),
        404,
      );
      assert.equal((await org.req('GET', '/api/communications/conversations', { key: who })).body.results.length, 0);
    }

    for (const who of [byKey.key, byRole.key]) {
      const log = (await org.req('GET', '/api/communications/messages', { key: who })).body.results.map((m: { id: string }) => m.id);
      for (const id of ids) {
        assert.ok(log.includes(id), 'listed in the message log');
        assert.equal((await org.req('GET', `/api/communications/messages/${id}`, { key: who })).status, 200);
      }
      const detail = await org.req('GET', `/api/communications/conversations/${conv.id}`, { key: who });
      assert.deepEqual(
        detail.body.messages.map((m: { id: string }) => m.id),
        ids,
      );
    }
  },
);

test("inbox access list: only this organization's roles (name or id) and keys; anything else 422 naming the entry", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const inbox = await org.req('POST', '/api/communications/inboxes', { body: { name: 'board' } });
  const url = `/api/communications/inboxes/${inbox.body.id}`;
  const theirRole = (await other.req('GET', '/api/settings/roles')).body.results[0].id as string;
  const theirKey = (await other.req('GET', '/api/settings/keys')).body.results[0].id as string;
  for (const [list, entry] of [
    [{ roles: [theirRole] }, theirRole],
    [{ key_ids: [theirKey] }, theirKey],
    [{ roles: ['staff', 'no such role'] }, 'no such role'],
    [{ key_ids: ['garbage'] }, 'garbage'],
  ] as const) {
    const res = await org.req('PATCH', url, { body: { is_restricted: true, access_list: list } });
    assertErrorShape(url, res, 422);
    assert.ok(res.body.error.includes(entry), res.body.error);
    assert.match(res.body.error, /not one of this organization's/);
  }
  const unchanged = await org.req('GET', url);
  assert.equal(unchanged.body.is_restricted, false, 'a refused change changes nothing');
  assert.deepEqual(unchanged.body.access_list, { roles: [], key_ids: [] });
  const myRole = (await org.req('GET', '/api/settings/roles')).body.results.find((r: { name: string }) => r.name === 'staff').id;
  const myKey = (await org.req('GET', '/api/settings/keys')).body.results[0].id;
  const ok = await org.req('PATCH', url, { body: { is_restricted: true, access_list: { roles: ['admin', myRole], key_ids: [myKey] } } });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.access_list, { roles: ['admin', myRole], key_ids: [myKey] });
});

test('restricted inbox: replaying a send lists only the messages the caller may read', async () => {
  const org = await makeOrg(t);
  const inbox = await org.req('POST', '/api/communications/inboxes', { body: { name: 'private' } });
  assert.equal(
    (
      await org.req('PATCH', `/api/communications/inboxes/${inbox.body.id}`, {
        body: { is_restricted: true, access_list: { roles: ['admin'] } },
      })
    ).status,
    200,
  );
  const body = {
    idempotency_key: `rp-${seq++}`,
    to_addresses: ['someone@example.org'],
    subject: 'Private',
    body_blocks: [{ type: 'p', runs: [{ text: 'x' }] }],
    inbox_id: inbox.body.id,
  };
  const sent = await org.req('POST', '/api/communications/messages', { body });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  assert.equal(sent.body.results.length, 1);
  const outsider = await org.req('POST', '/api/communications/messages', { key: org.keys.staff, body });
  assert.equal(outsider.status, 202, JSON.stringify(outsider.body));
  assert.equal(outsider.headers['idempotent-replayed'], 'true');
  assert.deepEqual(outsider.body.results, [], 'a key off the access list sees no message of the restricted inbox');
  const onList = await org.req('POST', '/api/communications/messages', { body });
  assert.deepEqual(
    onList.body.results.map((m: { id: string }) => m.id),
    [sent.body.results[0].id],
  );
});
