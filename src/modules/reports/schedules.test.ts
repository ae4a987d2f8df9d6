// Scheduled reports: CRUD, a run through the job queue (once per month), the email with the report attached
// delivered to a real SMTP listener on loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DateTime } from 'luxon';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { kx } from '../../platform/db/kysely.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { fakeProvider, type FakeProvider } from '../communications/testing.ts';
import { fresh, intake } from './fixtures.test-helpers.ts';
import { runSchedule } from './schedules.ts';

let t: TestApp;
let smtp: FakeProvider;
let org: TestOrg;
before(async () => {
  smtp = await fakeProvider({ name: 'reports' });
  t = await testApp({ smtpProviders: smtp.url });
  org = await makeOrg(t, { timeZone: 'UTC' });
});
after(async () => {
  await t.close();
  await smtp.close();
});

const lastMonth = DateTime.utc().minus({ months: 1 }).toFormat('yyyy-MM');

test('a monthly SAC schedule: runs once per month through the job queue and emails the CSV attached', async () => {
  const rex = await fresh(org, 'Rex', { dob: '2020-01-01' });
  await intake(org, rex, `${lastMonth}-03T12:00:00Z`, 'stray');

  const made = await org.req('POST', '/api/reports/schedules', {
    body: {
      name: 'Monthly SAC',
      report: 'sac',
      species_group: 'dogs',
      format: 'csv',
      recipients: ['board@example.org', 'vet@example.org'],
      day_of_month: 3,
    },
  });
  assert.equal(made.status, 201, made.raw);
  const id = made.body.id as string;
  // The next month's run is queued for later: nothing is due yet.
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.deepEqual((await org.req('GET', `/api/reports/schedules/${id}`)).body.runs, []);

  const run = await org.req('POST', `/api/reports/schedules/${id}/run`);
  assert.equal(run.status, 202, run.raw);
  assert.equal(run.body.period, lastMonth);
  assert.ok(run.body.job_id);
  const again = await org.req('POST', `/api/reports/schedules/${id}/run`);
  assert.equal(again.body.job_id, null);
  await runDueJobs(t.ctx, { orgId: org.id });
  const s = await org.req('GET', `/api/reports/schedules/${id}`);
  assert.equal(s.body.runs.length, 1);
  assert.equal(s.body.runs[0].period, lastMonth);
  assert.equal(s.body.runs[0].message_ids.length, 2);
  // A second delivery of the same job (at least once) sends nothing more.
  const twice = await runSchedule(t.ctx, org.id, id, lastMonth);
  assert.equal(twice.sent, false);

  // The emails went out in the same run of the queue: their send jobs were queued with the report's run, due at once.
  assert.equal(smtp.received.length, 2);
  const to = smtp.received.map((m) => (Array.isArray(m.to) ? m.to[0]?.text : m.to?.text)).sort();
  assert.deepEqual(to, ['board@example.org', 'vet@example.org']);
  for (const m of smtp.received) {
    assert.match(m.subject ?? '', /Monthly SAC: Shelter Animals Count: Dogs/);
    assert.equal(m.attachments.length, 1);
    const a = m.attachments[0];
    assert.equal(a?.filename, `sac-${lastMonth}.csv`);
    const csv = a?.content.toString('utf8') ?? '';
    assert.ok(csv.split('\n').includes('Intake: Stray/At large,1,0,0,1'), csv);
  }
});

test('schedules: list, change, delete; 403 naming the area a report reads; bad input', async () => {
  const made = await org.req('POST', '/api/reports/schedules', {
    body: { name: 'Gifts', report: 'donations', format: 'xlsx', recipients: ['treasurer@example.org'] },
  });
  assert.equal(made.status, 201, made.raw);
  assert.equal(made.body.day_of_month, 1);
  const list = await org.req('GET', '/api/reports/schedules');
  assert.ok(list.body.results.some((s: any) => s.id === made.body.id));
  const p = await org.req('PATCH', `/api/reports/schedules/${made.body.id}`, { body: { format: 'pdf', active: false } });
  assert.equal(p.status, 200, p.raw);
  assert.deepEqual([p.body.format, p.body.active], ['pdf', false]);

  const noFundraising = await org.keyWith({ reports: 'write', animals: 'read' });
  const denied = await org.req('POST', '/api/reports/schedules', {
    key: noFundraising,
    body: { name: 'Gifts', report: 'donations', format: 'csv', recipients: ['t@example.org'] },
  });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error, /Fundraising/);
  const bad = await org.req('POST', '/api/reports/schedules', {
    body: { name: 'X', report: 'intakes', species_group: 'cats', format: 'csv', recipients: ['t@example.org'] },
  });
  assert.equal(bad.status, 422);
  assert.ok(
    [400, 422].includes(
      (await org.req('POST', '/api/reports/schedules', { body: { name: 'X', report: 'nope', format: 'csv', recipients: ['a@b.org'] } }))
        .status,
    ),
  );

  assert.equal((await org.req('DELETE', `/api/reports/schedules/${made.body.id}`)).status, 204);
  assert.equal((await org.req('GET', `/api/reports/schedules/${made.body.id}`)).status, 404);
  assert.equal((await org.req('DELETE', `/api/reports/schedules/${made.body.id}`)).status, 404);
  assert.equal((await org.req('PATCH', `/api/reports/schedules/${made.body.id}`, { body: { active: true } })).status, 404);

  // One audit row per write, in its transaction; the refused writes wrote none.
  const audited = await kx(t.db)
    .selectFrom('audit_log')
    .select(['action', 'detail'])
    .where('organization_id', '=', org.id)
    .where('entity_type', '=', 'report_schedule')
    .where('entity_id', '=', made.body.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  assert.deepEqual(audited, [
    { action: 'create', detail: { report: 'donations' } },
    { action: 'update', detail: { format: 'pdf', active: false } },
    { action: 'delete', detail: {} },
  ]);
});
