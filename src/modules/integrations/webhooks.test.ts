import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { horizonEvents, recordChange } from '../../platform/changes.ts';
import { deliverDue, backoffMs, DELIVER_JOB, FANOUT_JOB, type DeliveryOptions } from './delivery.ts';
import { listJobs, runDueJobs } from '../../platform/jobs.ts';
import { isInternalAddress, urlProblem } from './signing.ts';

let t: TestApp;
let strict: TestApp;
before(async () => {
  t = await testApp({ webhooksAllowInsecure: true });
  strict = await testApp({ webhooksAllowInsecure: false });
});
after(async () => {
  await t.close();
  await strict.close();
});

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}
/** A real HTTP receiver on loopback; `answer` decides each response (status, or 'hang' to time out). */
async function receiver(answer: (hit: Hit, n: number) => number | 'hang' = () => 200) {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      const a = answer(hit, hits.length);
      if (a === 'hang') return; // never answers: the sender's timeout fires
      res.writeHead(a, { 'content-type': 'text/plain' }).end(a >= 300 ? 'broken right now' : 'thanks');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    events: () => hits.map((h) => JSON.parse(h.body) as { type: string; data: { id: string; fields: Record<string, unknown> } }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function endpoint(
  org: TestOrg,
  url: string,
  events: string[] = ['animal.created', 'animal.updated', 'animal.status_changed', 'animal.deleted'],
) {
  const res = await org.req('POST', '/api/settings/webhooks', { body: { url, events } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}
async function animal(org: TestOrg, name = 'Biscuit') {
  const res = await org.req('POST', '/api/v1/animals', { body: { name, species: 'Dog', status: 'Available', intakeDate: '2026-10-01' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
const run = (org: TestOrg, o: DeliveryOptions = {}) =>
  deliverDue(t.ctx, { organizations: [org.id], retryBaseMs: 0, timeoutMs: 2000, ...o });
/** Runs passes until nothing is due (retries are due at once with retryBaseMs 0). */
async function drain(org: TestOrg, o: DeliveryOptions = {}, max = 20) {
  for (let i = 0; i < max; i++) if ((await run(org, o)) === 0) return;
}

test('a delivery is signed the Standard Webhooks way and verifiable with the published algorithm', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  try {
    const ep = await endpoint(org, rx.url);
    assert.match(ep.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
    const id = await animal(org);
    await drain(org);
    assert.equal(rx.hits.length, 1);
    const hit = at(rx.hits, 0);
    const wid = String(hit.headers['webhook-id']);
    const ts = String(hit.headers['webhook-timestamp']);
    // The receiver's five lines (docs/integrations.md).
    const key = Buffer.from(ep.secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${wid}.${ts}.${hit.body}`).digest('base64');
    const sent = String(hit.headers['webhook-signature'])
      .split(' ')
      .map((s) => s.split(',')[1]);
    assert.ok(sent.includes(expected));
    const body = JSON.parse(hit.body);
    assert.equal(body.type, 'animal.created');
    assert.equal(body.data.object, 'animal');
    assert.equal(body.data.id, id);
    assert.equal(body.data.fields.name, 'Biscuit');
    assert.doesNotMatch(hit.body, /whsec_|secret/);
    // The secret is shown once: never in a read.
    const read = await org.req('GET', `/api/settings/webhooks/${ep.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined);
    const log = await org.req('GET', `/api/settings/webhooks/${ep.id}/deliveries`);
    assert.equal(log.body.results[0].status, 'delivered');
    assert.equal(log.body.results[0].id, wid);
    assert.equal(log.body.results[0].attempt_log[0].status_code, 200);
    assert.equal(log.body.results[0].attempt_log[0].response_start, 'thanks');
  } finally {
    await rx.close();
  }
});

test('retries after 500s and after a timeout, same webhook-id, and keeps each record in commit order', async () => {
  const org = await makeOrg(t);
  let calls = 0;
  const rx = await receiver(() => {
    calls += 1;
    return calls === 1 ? 500 : calls === 2 ? 'hang' : 200;
  });
  try {
    const ep = await endpoint(org, rx.url);
    const id = await animal(org);
    assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { name: 'Biscuit II' } })).status, 200);
    assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { status: 'Adopted' } })).status, 200);
    await drain(org, { timeoutMs: 300 });
    const events = rx.events();
    // Attempts 1 (500) and 2 (timeout) were the creation; nothing of the same record went before it.
    assert.deepEqual(
      events.map((e) => e.type),
      ['animal.created', 'animal.created', 'animal.created', 'animal.updated', 'animal.updated', 'animal.status_changed'],
    );
    assert.equal(new Set(rx.hits.slice(0, 3).map((h) => h.headers['webhook-id'])).size, 1);
    assert.equal(at(events, 4).data.fields.status_id !== undefined, true);
    const log = await org.req('GET', `/api/settings/webhooks/${ep.id}/deliveries?status=delivered`);
    const created = log.body.results.find((d: { event: string }) => d.event === 'animal.created');
    assert.equal(created.attempts, 3);
    assert.deepEqual(
      created.attempt_log.map((a: { status_code: number | null; success: boolean }) => [a.status_code, a.success]),
      [
        [500, false],
        [null, false],
        [200, true],
      ],
    );
    assert.match(created.attempt_log[1].error, /no answer within 300 ms/);
  } finally {
    await rx.close();
  }
});

test('a crash between sending and recording sends again with the same webhook-id (at least once)', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  try {
    await endpoint(org, rx.url);
    await animal(org);
    // The worker sends, the receiver answers 200, and the worker dies before recording it.
    await assert.rejects(
      run(org, {
        leaseMs: 0,
        afterSend: () => {
          throw new Error('crash');
        },
      }),
      /crash/,
    );
    assert.equal(rx.hits.length, 1);
    // The lease has run out: the next pass gives the claim back and sends it again.
    await drain(org);
    assert.equal(rx.hits.length, 2);
    assert.equal(at(rx.hits, 0).headers['webhook-id'], at(rx.hits, 1).headers['webhook-id']);
    await drain(org);
    assert.equal(rx.hits.length, 2);
  } finally {
    await rx.close();
  }
});

test('a rolled-back change sends nothing and never appears in the feed', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  try {
    await endpoint(org, rx.url);
    await assert.rejects(
      t.db.tx(async (q) => {
        await recordChange(q, org.id, { event: 'animal.created', entity: 'animal', id: 'ani_rolledback', fields: { name: 'Ghost' } });
        throw new Error('rolled back');
      }),
    );
    // A failing animal write (invalid) records nothing either.
    assert.equal((await org.req('PATCH', '/api/v1/animals/ani_nosuchanimal0000000', { body: { name: 'X' } })).status, 404);
    await drain(org);
    assert.equal(rx.hits.length, 0);
    const feed = await org.req('GET', '/api/changes');
    assert.equal(feed.status, 200);
    assert.deepEqual(feed.body.results, []);
  } finally {
    await rx.close();
  }
});

test('the fan-out wake-up takes no lock: a writer that finds the fan-out waiting queues none, and loses nothing', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  const w = await t.db.pool.connect();
  const fanouts = async () => (await listJobs(t.db, org.id, FANOUT_JOB)).filter((j) => j.status === 'queued');
  const insert =
    'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields) ' +
    "VALUES ($1, 'animal.updated', 'animals', 'animal', $2, '{}')";
  try {
    await endpoint(org, rx.url, ['animal.created', 'animal.updated']);
    await animal(org, 'Queues the fan-out');
    assert.equal((await fanouts()).length, 1);
    // W writes a change and runs its commit-time trigger now (SET CONSTRAINTS … IMMEDIATE): it finds that fan-out
    // waiting, so it queues none and locks nothing. Then the fan-out is claimed while W is still open.
    await w.query('BEGIN');
    await w.query(insert, [org.id, 'ani_open_writer']);
    await w.query('SET CONSTRAINTS ALL IMMEDIATE');
    const locks = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND locktype IN ('advisory', 'tuple') AND granted",
      [(await w.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid],
    );
    assert.equal(at(locks, 0).n, 0, 'the writer holds no advisory or row lock');
    assert.equal((await fanouts()).length, 1, 'no second fan-out queued');
    // The fan-out has taken its snapshot (W's transaction began before it) when it says it waits: commit W then.
    const waiting = once(horizonEvents, 'waiting');
    const jobs = runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] });
    await waiting;
    // The fan-out waits for W (its transaction began before the run), which commits now: its change is sent.
    await w.query('COMMIT');
    await jobs;
    await drain(org);
    assert.deepEqual(
      rx.events().map((e) => `${e.type}:${e.data.id.startsWith('ani_open') ? e.data.id : 'first'}`),
      ['animal.created:first', 'animal.updated:ani_open_writer'],
    );
    // A writer open longer than the fan-out waits: the run sends what is below the horizon and queues its next run.
    await w.query('BEGIN');
    await w.query(insert, [org.id, 'ani_long_writer']);
    await w.query(insert.replace('animal.updated', 'animal.created'), [org.id, 'ani_long_writer_2']);
    await animal(org, 'After the long one began');
    await run(org, { horizonWaitMs: 200 });
    assert.equal(rx.hits.length, 2, 'held back behind the open transaction');
    const next = await fanouts();
    assert.equal(next.length, 1, 'the next fan-out waits');
    assert.ok(at(next, 0).run_at.getTime() > Date.now() - 100);
    await w.query('COMMIT');
    await t.db.query("UPDATE jobs SET run_at = now() WHERE organization_id = $1 AND kind = $2 AND status = 'queued'", [org.id, FANOUT_JOB]);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] });
    await drain(org);
    assert.deepEqual(
      rx
        .events()
        .slice(2)
        .map((e) => `${e.type}:${e.data.id.startsWith('ani_long') ? e.data.id : 'after'}`),
      ['animal.updated:ani_long_writer', 'animal.created:ani_long_writer_2', 'animal.created:after'],
    );
  } finally {
    await w.query('ROLLBACK').catch(() => undefined);
    w.release();
    await rx.close();
  }
});

test('an endpoint gets the changes of transactions still running when it was added, not those committed before', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  const w = await t.db.pool.connect();
  const hold = await t.db.pool.connect();
  try {
    // An unrelated transaction holds the horizon below 'Before' the whole time: the horizon alone would send it.
    await hold.query('BEGIN');
    await hold.query('SELECT pg_current_xact_id()');
    await animal(org, 'Before');
    await w.query('BEGIN');
    await w.query(
      'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields) ' +
        "VALUES ($1, 'animal.created', 'animals', 'animal', 'ani_running', '{}')",
      [org.id],
    );
    await endpoint(org, rx.url);
    await hold.query('COMMIT');
    await w.query('COMMIT');
    await animal(org, 'After');
    await drain(org);
    const names = rx.events().map((e) => (e.data.id === 'ani_running' ? 'running' : String(e.data.fields.name)));
    assert.deepEqual(names, ['running', 'After']);
  } finally {
    await w.query('ROLLBACK').catch(() => undefined);
    await hold.query('ROLLBACK').catch(() => undefined);
    w.release();
    hold.release();
    await rx.close();
  }
});

test('a run of failures pauses the endpoint and emails the organization; enabling it sends the backlog in order', async () => {
  const org = await makeOrg(t);
  await org.req('PATCH', '/api/settings/organization', { body: { email: 'office@rescue.example' } });
  let failing = true;
  const rx = await receiver(() => (failing ? 503 : 200));
  try {
    const ep = await endpoint(org, rx.url);
    await animal(org, 'One');
    await animal(org, 'Two');
    await drain(org, { pauseAfter: 3 });
    const paused = await org.req('GET', `/api/settings/webhooks/${ep.id}`);
    assert.equal(paused.body.enabled, false);
    assert.match(paused.body.paused_reason, /3 failed attempts in a row/);
    const sentBefore = rx.hits.length;
    await drain(org, { pauseAfter: 3 });
    assert.equal(rx.hits.length, sentBefore, 'nothing is sent while paused');
    const notices = await t.db.query<{ subject: string; recipient_address: string }>(
      "SELECT subject, recipient_address FROM comm_messages WHERE organization_id = $1 AND related_entity_type = 'webhook_endpoint'",
      [org.id],
    );
    assert.equal(notices.length, 1);
    assert.equal(at(notices, 0).recipient_address, 'office@rescue.example');
    failing = false;
    const resumed = await org.req('PATCH', `/api/settings/webhooks/${ep.id}`, { body: { enabled: true } });
    assert.equal(resumed.body.failure_run, 0);
    await drain(org, { pauseAfter: 3 });
    const ok = rx.hits.slice(sentBefore).map((h) => JSON.parse(h.body).data.fields.name);
    assert.deepEqual(ok, ['One', 'Two']);
  } finally {
    await rx.close();
  }
});

test('redelivery on request sends the same webhook-id again', async () => {
  const org = await makeOrg(t);
  const rx = await receiver();
  try {
    const ep = await endpoint(org, rx.url);
    await animal(org);
    await drain(org);
    const log = await org.req('GET', `/api/settings/webhooks/${ep.id}/deliveries`);
    const d = log.body.results[0];
    const again = await org.req('POST', `/api/settings/webhooks/${ep.id}/deliveries/${d.id}/redeliver`);
    assert.equal(again.status, 202);
    assert.equal(again.body.status, 'pending');
    await drain(org);
    assert.equal(rx.hits.length, 2);
    assert.equal(at(rx.hits, 1).headers['webhook-id'], d.id);
    const missing = await org.req('POST', `/api/settings/webhooks/${ep.id}/deliveries/msg_nope/redeliver`);
    assertErrorShape('/api/settings', missing, 404);
  } finally {
    await rx.close();
  }
});

test('the kernel job queue drives delivery: a commit queues the fan-out, the endpoint job comes back at the retry time', async () => {
  const org = await makeOrg(t);
  let calls = 0;
  const rx = await receiver(() => (++calls === 1 ? 500 : 200));
  try {
    const ep = await endpoint(org, rx.url);
    const queued = async (kind: string) => (await listJobs(t.db, org.id, kind)).filter((j) => j.status === 'queued');
    assert.equal((await queued(FANOUT_JOB)).length, 0);
    // A rolled-back change queues nothing; a committed one queues the organization's fan-out, once for many changes.
    await assert.rejects(
      t.db.tx(async (q) => {
        await recordChange(q, org.id, { event: 'animal.created', entity: 'animal', id: 'ani_rolledback', fields: {} });
        throw new Error('rolled back');
      }),
    );
    assert.equal((await queued(FANOUT_JOB)).length, 0);
    const id = await animal(org);
    await animal(org, 'Second');
    assert.equal((await queued(FANOUT_JOB)).length, 1);
    // The worker's own round (no deliverDue): fan-out, then the endpoint's job sends both; the first answer is a 500.
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] });
    assert.equal(rx.hits.length, 2);
    const waiting = await queued(DELIVER_JOB);
    assert.equal(waiting.length, 1, 'one job per endpoint waits');
    assert.equal(at(waiting, 0).key, ep.id);
    const failed = (
      await t.db.query<{ next_attempt_at: Date }>(
        "SELECT next_attempt_at FROM webhook_deliveries WHERE organization_id = $1 AND status = 'pending'",
        [org.id],
      )
    )[0];
    assert.ok(failed);
    assert.equal(at(waiting, 0).run_at.getTime(), failed.next_attempt_at.getTime(), 'it comes back at the retry time');
    assert.equal(await runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] }), 0, 'not before');
    // A change meanwhile is sent at once, by a run of its own; the retry still waits for its time.
    assert.equal((await org.req('PATCH', `/api/v1/animals/${id}`, { body: { name: 'Later' } })).status, 200);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] });
    const types = rx.events().map((e) => `${e.type}:${e.data.id === id ? 'first' : 'second'}`);
    assert.equal(types.length, 2, 'the update of the first record waits behind its retry (order per record)');
    // Its time comes.
    await t.db.query("UPDATE webhook_deliveries SET next_attempt_at = now() WHERE organization_id = $1 AND status = 'pending'", [org.id]);
    await t.db.query("UPDATE jobs SET run_at = now() WHERE organization_id = $1 AND kind = $2 AND status = 'queued'", [
      org.id,
      DELIVER_JOB,
    ]);
    await runDueJobs(t.ctx, { orgId: org.id, kinds: [FANOUT_JOB, DELIVER_JOB] });
    const ids = rx.events().map((e) => `${e.type}:${e.data.id === id ? 'first' : 'second'}`);
    assert.deepEqual(ids.slice(2), ['animal.created:first', 'animal.updated:first']);
    assert.equal((await queued(DELIVER_JOB)).length, 0, 'nothing left: no job waits');
  } finally {
    await rx.close();
  }
});

test('endpoint rules: https only outside development, no internal addresses, closed event list, secret rotation', async () => {
  const org = await makeOrg(strict);
  const bad = async (url: string) => {
    const res = await org.req('POST', '/api/settings/webhooks', { body: { url, events: ['animal.created'] } });
    assertErrorShape('/api/settings/webhooks', res, 422);
    return res.body.error as string;
  };
  await bad('http://hooks.example.org/x');
  await bad('https://127.0.0.1/x');
  await bad('https://10.1.2.3/x');
  await bad('https://[::1]/x');
  await bad('https://169.254.169.254/latest/meta-data');
  await bad('https://localhost/x');
  // Loopback and private ranges in their IPv6 spellings: 6to4, site-local, IPv4-compatible and IPv4-mapped, NAT64, unique-local.
  for (const host of [
    '[2002:7f00:1::1]',
    '[fec0::1]',
    '[::7f00:1]',
    '[::ffff:7f00:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:a9fe:a9fe]',
    '[64:ff9b::a00:1]',
    '[fd12:3456::1]',
    '[::]',
    '0x7f000001',
    '2130706433',
  ])
    assert.match(await bad(`https://${host}/x`), /loopback, private or link-local/, host);
  await bad('https://user:pw@hooks.example.org/x');
  await bad('not a url');
  const unknown = await org.req('POST', '/api/settings/webhooks', {
    body: { url: 'https://hooks.example.org/x', events: ['animal.eaten'] },
  });
  assertErrorShape('/api/settings/webhooks', unknown, 422);
  const good = await org.req('POST', '/api/settings/webhooks', {
    body: { url: 'https://hooks.example.org/x', events: ['person.created'] },
  });
  assert.equal(good.status, 201);
  const rotated = await org.req('POST', `/api/settings/webhooks/${good.body.id}/rotate-secret`);
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.secret, good.body.secret);
  const list = await org.req('GET', '/api/settings/webhooks');
  assert.equal(list.body.results.length, 1);
  assert.equal(list.body.results[0].secret, undefined);
  const del = await org.req('DELETE', `/api/settings/webhooks/${good.body.id}`);
  assert.equal(del.status, 204);
  assert.equal((await org.req('GET', `/api/settings/webhooks/${good.body.id}`)).status, 404);
});

test('send-time check: a name resolving to loopback is refused in production', async () => {
  const org = await makeOrg(strict);
  // Saved through the API it would be refused by name; written as a rebinding attacker's name would look after the check.
  const res = await org.req('POST', '/api/settings/webhooks', { body: { url: 'https://hooks.example.org/x', events: ['animal.created'] } });
  await strict.db.query("UPDATE webhook_endpoints SET url = 'https://localtest.me/x' WHERE organization_id = $1", [org.id]);
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'R', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' },
  });
  assert.equal(a.status, 201);
  await deliverDue(strict.ctx, { organizations: [org.id], retryBaseMs: 0 });
  const log = await org.req('GET', `/api/settings/webhooks/${res.body.id}/deliveries`);
  const attempt = log.body.results[0].attempt_log[0];
  assert.equal(attempt.success, false);
  assert.match(attempt.error, /refused|could not resolve/);
});

test('send-time check: an internal address in an IPv6 spelling is refused when connecting too', async () => {
  const org = await makeOrg(strict);
  const res = await org.req('POST', '/api/settings/webhooks', { body: { url: 'https://hooks.example.org/x', events: ['animal.created'] } });
  assert.equal(res.status, 201, res.raw);
  // Written past the save-time check, as an address saved before this rule would be.
  await strict.db.query("UPDATE webhook_endpoints SET url = 'https://[::ffff:7f00:1]:9/x' WHERE organization_id = $1", [org.id]);
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'R', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' },
  });
  assert.equal(a.status, 201);
  await deliverDue(strict.ctx, { organizations: [org.id], retryBaseMs: 0 });
  const log = await org.req('GET', `/api/settings/webhooks/${res.body.id}/deliveries`);
  const attempt = log.body.results[0].attempt_log[0];
  assert.equal(attempt.success, false);
  assert.match(attempt.error, /refused/);
});

test('subscribing to the events of an area needs read on that area: settings admin alone cannot watch people', async () => {
  const org = await makeOrg(t);
  const settingsOnly = await org.keyWith({ settings: 'admin' });
  const people = await org.req('POST', '/api/settings/webhooks', {
    key: settingsOnly,
    body: { url: 'http://127.0.0.1:9/x', events: ['person.created', 'person.updated', 'animal.created'] },
  });
  assertErrorShape('/api/settings/webhooks', people, 403);
  assert.match(people.body.error, /read permission on People to subscribe to person\.created, person\.updated/);
  assert.equal((await org.req('GET', '/api/settings/webhooks')).body.results.length, 0, 'nothing made');
  const withPeople = await org.keyWith({ settings: 'admin', people: 'read' });
  const ok = await org.req('POST', '/api/settings/webhooks', {
    key: withPeople,
    body: { url: 'http://127.0.0.1:9/x', events: ['person.created'] },
  });
  assert.equal(ok.status, 201, ok.raw);
  // Changing the events is checked the same way.
  const widen = await org.req('PATCH', `/api/settings/webhooks/${ok.body.id}`, {
    key: withPeople,
    body: { events: ['person.created', 'donation.recorded'] },
  });
  assertErrorShape('/api/settings/webhooks/x', widen, 403);
  assert.match(widen.body.error, /read permission on Fundraising/);
  assert.deepEqual((await org.req('GET', `/api/settings/webhooks/${ok.body.id}`)).body.events, ['person.created']);
  const rename = await org.req('PATCH', `/api/settings/webhooks/${ok.body.id}`, { key: settingsOnly, body: { description: 'x' } });
  assert.equal(rename.status, 200, 'a change that adds no events needs no more');
});

test('pure rules: internal addresses, URL checks and the back-off', () => {
  for (const a of [
    '127.0.0.1',
    '10.0.0.1',
    '172.20.1.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '0.0.0.0',
    '2002:7f00:1::1',
    'fec0::1',
    '::7f00:1',
    '::ffff:7f00:1',
    '64:ff9b::7f00:1',
    '100.64.0.1',
    'fe80::1%eth0',
    'not an address',
  ])
    assert.equal(isInternalAddress(a), true, a);
  for (const a of ['8.8.8.8', '2606:4700:4700::1111', '93.184.216.34']) assert.equal(isInternalAddress(a), false, a);
  assert.equal(urlProblem('http://127.0.0.1:3000/x', true), null);
  assert.notEqual(urlProblem('http://127.0.0.1:3000/x', false), null);
  // Doubling from the base, capped, jitter within ±50%.
  assert.equal(
    backoffMs(1, 1000, 60_000, () => 0.5),
    1000,
  );
  assert.equal(
    backoffMs(4, 1000, 60_000, () => 0.5),
    8000,
  );
  assert.equal(
    backoffMs(30, 1000, 60_000, () => 0.5),
    60_000,
  );
  assert.equal(
    backoffMs(1, 1000, 60_000, () => 0),
    500,
  );
  // The production schedule gives up after about three days: count the retries it allows.
  let elapsed = 0;
  let n = 0;
  while (elapsed + backoffMs(n + 1, 30_000, 8 * 3600_000, () => 0.5) <= 3 * 24 * 3600_000)
    elapsed += backoffMs(++n, 30_000, 8 * 3600_000, () => 0.5);
  assert.ok(n >= 15 && n <= 25, String(n));
});

securitySuite('webhooks', () => t, [
  {
    method: 'GET',
    path: () => '/api/settings/webhooks',
    area: 'settings',
    level: 'admin',
    seed: async (o) => (await endpoint(o, 'http://127.0.0.1:9/x')).id,
  },
  {
    method: 'POST',
    path: () => '/api/settings/webhooks',
    body: { url: 'http://127.0.0.1:9/x', events: ['animal.created'] },
    area: 'settings',
    level: 'admin',
    also: [{ area: 'animals', level: 'read' }],
  },
  {
    method: 'GET',
    path: async (o) => `/api/settings/webhooks/${(await endpoint(o, 'http://127.0.0.1:9/x')).id}`,
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'PATCH',
    path: async (o) => `/api/settings/webhooks/${(await endpoint(o, 'http://127.0.0.1:9/x')).id}`,
    body: { description: 'x' },
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'DELETE',
    path: async (o) => `/api/settings/webhooks/${(await endpoint(o, 'http://127.0.0.1:9/x')).id}`,
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (o) => `/api/settings/webhooks/${(await endpoint(o, 'http://127.0.0.1:9/x')).id}/rotate-secret`,
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'GET',
    path: async (o) => `/api/settings/webhooks/${(await endpoint(o, 'http://127.0.0.1:9/x')).id}/deliveries`,
    area: 'settings',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (o) => {
      const ep = await endpoint(o, 'http://127.0.0.1:9/x');
      await animal(o);
      await deliverDue(t.ctx, { organizations: [o.id], timeoutMs: 500, retryBaseMs: 3600_000 });
      const log = await o.req('GET', `/api/settings/webhooks/${ep.id}/deliveries`);
      return `/api/settings/webhooks/${ep.id}/deliveries/${log.body.results[0].id}/redeliver`;
    },
    area: 'settings',
    level: 'admin',
  },
]);
