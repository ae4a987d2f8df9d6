/**
 * The restart drill: Ark as a real process runs a large background import while a stream of animal writes keeps
 * webhook deliveries flowing to a receiver on loopback. The process is killed with SIGKILL mid-import (no shutdown, no
 * claim given back) and a new one is started on the same database and data directory. The import must resume within
 * 30 s of the new process being up (it takes its dead predecessor's claim at once: the liveness lock went with the
 * killed process's session), finish with every row imported exactly once, and the deliveries must go on.
 * The figures are printed for the operations notes.
 *
 * The second drill does the same to outbound mail: a process is killed while some messages are in the middle of their
 * SMTP conversation with a provider on loopback and others wait; a new process must send every waiting one exactly once
 * and resend none that a provider may already have (those are failed for review: mail is at most once).
 *
 * Runs once per `npm test` (on the first store).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { call, emptyDatabase, orgIn, startServer, type Answer, type ServerProcess } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const firstStore = (process.env.ARK_TEST_STORES ?? 'embedded,postgresql').split(',')[0];
const skip = process.env.ARK_TEST_STORE && process.env.ARK_TEST_STORE !== firstStore ? 'runs on the first store only' : false;

const ROWS = 30_000;

function peopleCsv(n: number): string {
  const rows = ['First Name,Last Name,Email'];
  for (let i = 0; i < n; i++) rows.push(`Row${i},Restart,row${i}@restart.example`);
  return rows.join('\n');
}

/** Polls `check` every 100 ms until it answers a value, or throws after `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

test('kill -9 during a background import: a new process resumes it within 30 s, every row once, webhooks keep flowing', {
  skip,
  timeout: 600_000,
}, async () => {
  const db = await emptyDatabase(process.env.ARK_TEST_DATABASE_URL ?? '');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ark-restart-'));
  const env = {
    DATABASE_URL: db.url,
    ARK_DATA_DIR: dataDir,
    ARK_WEBHOOKS_ALLOW_INSECURE: 'true',
    ARK_RATE_LIMIT_PER_MINUTE: '1000000',
    ARK_DB_POOL_SIZE: '8',
  };
  // The webhook receiver: every delivery it is sent, by webhook-id.
  const received: { id: string; name: string; at: number }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const event = JSON.parse(body) as { data: { fields: { name?: string } } };
      received.push({ id: String(req.headers['webhook-id']), name: String(event.data.fields.name), at: Date.now() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;
  const sql = new pg.Client({ connectionString: db.url });
  let first: ServerProcess | null = null;
  let second: ServerProcess | null = null;
  let writing = true;
  let writer: Promise<void> = Promise.resolve();
  try {
    first = await startServer(env);
    await sql.connect();
    const org = await orgIn(db.url);
    let server: ServerProcess = first;
    const req = (method: string, p: string, body?: unknown) =>
      call(server.port, { method, path: p, host: org.host, key: org.key, body, timeoutMs: 60_000 });

    const hook = await req('POST', '/api/settings/webhooks', { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['animal.created'] });
    assert.equal((hook as Answer).status, 201, JSON.stringify(hook));

    // The stream of writes: one animal every 200 ms, each a webhook delivery; kept on through the kill and restart.
    const created: { name: string; at: number; process: 1 | 2 }[] = [];
    writer = (async () => {
      for (let i = 0; writing; i++) {
        const name = `Stream ${i}`;
        const proc = server === first ? 1 : 2;
        const res = await req('POST', '/api/v1/animals', { name, species: 'dog', status: 'Intake', intakeDate: '2026-01-02' });
        if ('status' in res && res.status === 201) created.push({ name, at: Date.now(), process: proc });
        await sleep(200);
      }
    })();
    await until('the first webhook delivery', 60_000, async () => received.length > 0);

    // The import, in the background.
    const importAt = Date.now();
    const started = await req('POST', '/api/imports/people', {
      format: 'csv',
      content: peopleCsv(ROWS),
      preset: 'spreadsheet',
      background: true,
    });
    assert.equal((started as Answer).status, 202, JSON.stringify(started));
    const runId = JSON.parse((started as Answer).body).id as string;
    const checkpoint = async () =>
      (
        await sql.query<{ next_row: number; status: string; batches: number }>(
          'SELECT next_row, status, batches FROM import_runs WHERE organization_id = $1 AND id = $2',
          [org.id, runId],
        )
      ).rows[0];

    // Mid-import: a batch has committed and rows remain. Then kill -9.
    await until('a committed batch', 240_000, async () => {
      const c = await checkpoint();
      return c && c.next_row > 0 && c.next_row < ROWS;
    });
    const deliveredBeforeKill = received.length;
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await checkpoint();
    const importJob = async () =>
      (
        await sql.query<{ attempts: number; status: string }>(
          "SELECT attempts, status FROM jobs WHERE organization_id = $1 AND kind = 'imports.run'",
          [org.id],
        )
      ).rows[0];
    const attemptsAtKill = (await importJob())?.attempts ?? 0;
    assert.ok(atKill && atKill.status === 'running' && atKill.next_row < ROWS, `mid-import at the kill: ${JSON.stringify(atKill)}`);

    // A new process on the same database and data directory.
    const spawnedAt = Date.now();
    second = await startServer(env);
    const readyAt = Date.now();
    server = second;
    // Resumed: the new process claimed the import's job again (its next attempt); then its first batch commits.
    const claimed = await until('the import to be claimed again', 120_000, async () => {
      const j = await importJob();
      return j && j.attempts > attemptsAtKill ? Date.now() : null;
    });
    const resumeSeconds = (claimed - spawnedAt) / 1000;
    const resumed = await until('the import to move on', 120_000, async () => {
      const c = await checkpoint();
      return c && (c.next_row > atKill.next_row || c.status === 'done') ? Date.now() : null;
    });

    const finished = await until('the import to finish', 480_000, async () => {
      const c = await checkpoint();
      return c && c.status !== 'running' && c.status !== 'queued' ? c : null;
    });
    const doneAt = Date.now();
    const run = JSON.parse(((await req('GET', `/api/imports/people/runs/${runId}`)) as Answer).body);

    // Webhooks go on after the restart: every animal the new process made is delivered.
    await sleep(1000);
    writing = false;
    await writer;
    const afterRestart = created.filter((c) => c.process === 2);
    assert.ok(afterRestart.length > 0, 'writes went on after the restart');
    await until('the new process’s writes to be delivered', 120_000, async () => {
      const names = new Set(received.map((r) => r.name));
      return afterRestart.every((c) => names.has(c.name));
    });
    const deliveredAfterRestart = received.filter((r) => r.at > readyAt).length;

    // Every row exactly once.
    const people = (
      await sql.query<{ n: string; emails: string }>(
        `SELECT count(*) AS n, count(DISTINCT lower(email)) AS emails FROM people
          WHERE organization_id = $1 AND last_name = 'Restart'`,
        [org.id],
      )
    ).rows[0];
    const job = await importJob();
    const figures = {
      rows: ROWS,
      rows_done_at_kill: atKill.next_row,
      seconds_from_import_start_to_kill: ((killedAt - importAt) / 1000).toFixed(1),
      seconds_new_process_to_ready: ((readyAt - spawnedAt) / 1000).toFixed(1),
      seconds_new_process_start_to_claim: resumeSeconds.toFixed(1),
      seconds_new_process_ready_to_claim: ((claimed - readyAt) / 1000).toFixed(1),
      seconds_new_process_start_to_next_batch: ((resumed - spawnedAt) / 1000).toFixed(1),
      seconds_resume_to_done: ((doneAt - resumed) / 1000).toFixed(1),
      job_attempts: job?.attempts,
      people: Number(people?.n),
      distinct_emails: Number(people?.emails),
      animals_written: created.length,
      deliveries_before_kill: deliveredBeforeKill,
      deliveries_after_restart: deliveredAfterRestart,
      deliveries_total: received.length,
      distinct_animals_delivered: new Set(received.map((r) => r.name)).size,
    };
    console.log(`# restart figures: ${JSON.stringify(figures)}`);
    assert.equal(finished.status, 'done', JSON.stringify(run));
    assert.deepEqual([run.created, run.error_count, run.duplicate_count, run.skipped], [ROWS, 0, 0, 0]);
    assert.equal(Number(people?.n), ROWS, 'every row imported');
    assert.equal(Number(people?.emails), ROWS, 'no row imported twice');
    // The bound is counted from the moment the new process is up (answers /healthz): how long it takes to boot is the
    // machine's (tens of seconds on a loaded CI box), the wait after that is the queue's.
    const afterReady = (claimed - readyAt) / 1000;
    assert.ok(
      afterReady < 30,
      `resumed ${afterReady.toFixed(1)} s after the new process was up (${resumeSeconds.toFixed(1)} s after its spawn)`,
    );
    assert.equal(job?.attempts, attemptsAtKill + 1, 'claimed once more, by the new process');
    assert.ok(deliveredAfterRestart > 0, 'webhook deliveries went on after the restart');
    assert.ok(second.alive, second.output());
  } finally {
    writing = false;
    await writer.catch(() => undefined);
    await first?.kill();
    await second?.kill();
    await sql.end().catch(() => undefined);
    await new Promise((resolve) => receiver.close(resolve));
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('kill -9 while mail is going out: waiting mail is sent once by the next process, mail caught mid-SMTP is never resent', {
  skip,
  timeout: 600_000,
}, async () => {
  const MAILS = 20;
  const ACCEPT_FIRST = 5;
  const db = await emptyDatabase(process.env.ARK_TEST_DATABASE_URL ?? '');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ark-restart-mail-'));
  // The provider: takes the first messages, then holds each later one in DATA without answering until told to stop.
  const accepted: string[] = [];
  const held: string[] = [];
  let holding = true;
  const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? '?';
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, _session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        if (holding && accepted.length >= ACCEPT_FIRST) {
          held.push(subjectOf(raw)); // never answered: the sender cannot know whether it was taken
          return;
        }
        accepted.push(subjectOf(raw));
        cb(null, `Message queued as fake-${accepted.length}`);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const env = {
    DATABASE_URL: db.url,
    ARK_DATA_DIR: dataDir,
    ARK_SMTP_PROVIDERS: `smtp://127.0.0.1:${smtpPort}?name=loopback`,
    ARK_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const sql = new pg.Client({ connectionString: db.url });
  let first: ServerProcess | null = null;
  let second: ServerProcess | null = null;
  try {
    first = await startServer(env);
    await sql.connect();
    const org = await orgIn(db.url);
    let server: ServerProcess = first;
    const req = (method: string, p: string, body?: unknown) =>
      call(server.port, { method, path: p, host: org.host, key: org.key, body, timeoutMs: 60_000 });
    const ids: string[] = [];
    for (let i = 0; i < MAILS; i++) {
      const r = (await req('POST', '/api/communications/messages', {
        to_addresses: [`reader${i}@example.org`],
        subject: `Mail ${i}`,
        body_blocks: [{ type: 'p', runs: [{ text: 'Hello.' }] }],
        idempotency_key: `restart-mail-${i}`,
      })) as Answer;
      assert.equal(r.status, 202, r.body);
      ids.push(JSON.parse(r.body).results[0].id as string);
    }
    // Some taken, some held mid-conversation (one per send slot of the process), the rest waiting. Then kill -9.
    await until('messages held in the middle of their SMTP conversation', 120_000, async () => held.length >= 4);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    const heldAtKill = [...held];
    const acceptedAtKill = [...accepted];
    holding = false;

    second = await startServer(env);
    server = second;
    const upAt = Date.now();
    const statuses = async () =>
      (
        await sql.query<{ subject: string; status: string; review: boolean | null }>(
          `SELECT subject, status, (payload_metadata->>'needs_review')::boolean AS review FROM comm_messages
            WHERE organization_id = $1 AND direction = 'outbound'`,
          [org.id],
        )
      ).rows;
    const settled = await until('every message sent or failed for review', 180_000, async () => {
      const rows = await statuses();
      return rows.every((r) => r.status === 'sent' || r.status === 'failed') ? rows : null;
    });
    const settledAt = Date.now();

    // Nothing a provider received was sent again, and every message is recorded once, as what happened to it.
    const counts = new Map<string, number>();
    for (const s of accepted) counts.set(s, (counts.get(s) ?? 0) + 1);
    assert.deepEqual(
      [...counts.values()].filter((n) => n > 1),
      [],
      'no message reached the provider twice',
    );
    for (const r of settled) {
      if (heldAtKill.includes(r.subject)) {
        assert.equal(r.status, 'failed', `${r.subject} was mid-SMTP at the kill`);
        assert.equal(r.review, true);
        assert.equal(counts.get(r.subject), undefined, `${r.subject} was not resent`);
      } else {
        assert.equal(r.status, 'sent', `${r.subject} was sent`);
        assert.equal(counts.get(r.subject), 1, `${r.subject} reached the provider once`);
      }
    }
    assert.equal(settled.length, MAILS);
    assert.equal(accepted.length, MAILS - heldAtKill.length);
    // The API shows the same: every message listed once, sent or failed.
    const listed = (await req('GET', '/api/communications/messages?limit=100')) as Answer;
    const results = JSON.parse(listed.body).results as { id: string; status: string }[];
    assert.deepEqual(results.map((m) => m.id).sort(), [...ids].sort());
    assert.equal(results.filter((m) => m.status === 'sent').length, MAILS - heldAtKill.length);
    const jobs = await sql.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM jobs WHERE organization_id = $1 AND kind = 'communications.send' GROUP BY status",
      [org.id],
    );
    assert.deepEqual(
      jobs.rows.map((j) => [j.status, Number(j.n)]),
      [['done', MAILS]],
    );
    console.log(
      JSON.stringify({
        mail_restart: {
          messages: MAILS,
          sent_before_kill: acceptedAtKill.length,
          mid_smtp_at_kill: heldAtKill.length,
          sent_by_second_process: accepted.length - acceptedAtKill.length,
          seconds_from_kill_to_new_process_up: ((upAt - killedAt) / 1000).toFixed(1),
          seconds_from_new_process_up_to_all_settled: ((settledAt - upAt) / 1000).toFixed(1),
        },
      }),
    );
  } finally {
    await first?.kill();
    await second?.kill();
    await sql.end().catch(() => undefined);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
