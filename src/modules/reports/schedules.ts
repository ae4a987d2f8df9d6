/**
 * Scheduled reports: an organization asks for a report by email every month. Each schedule's run for a month
 * is a job keyed `<schedule id>:<month>` (one run per month across processes); the run builds the previous
 * month's report in the schedule's format and queues one email per recipient with the file attached, in the
 * same transaction as the row recording the month as sent (a retried run sends nothing twice). The run then
 * queues the next month's job.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { allows, forbiddenMessage, type Area, type Grants } from '../../platform/permissions.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { isEmail } from '../../platform/validators.ts';
import { organizationCountry, organizationCurrency, organizationProfile, organizationTimeZone } from '../settings/public.ts';
import { queueEmailWithAttachments } from '../communications/public.ts';
import type { SpeciesGroup } from './catalogue.ts';
import { tableFile, type Table } from './formats.ts';
import * as ev from './everyday.ts';
import * as out from './outcomes.ts';
import * as sac from './sac.ts';

export const JOB_KIND = 'reports.scheduled';

interface Period {
  month: string;
  from: string;
  to: string;
}
type Builder = (q: Queryable, org: Organization, p: Period, s: ScheduleRow) => Promise<Table>;

/** What a schedule can send: the areas it reads and how it builds the month's report. */
export const SCHEDULABLE: Record<string, { areas: Area[]; build: Builder }> = {
  sac: {
    areas: ['animals'],
    build: async (q, org, p, s) => sac.matrixTable(await sac.sacMatrix(q, org, p.month, s.species_group ?? 'dogs'), org.name),
  },
  'live-release-rate': {
    areas: ['animals'],
    build: async (q, org, p, s) => out.lrrTable(await out.liveReleaseRate(q, org, p.from, p.to, s.species_group ?? undefined), org.name),
  },
  intakes: {
    areas: ['animals'],
    build: async (q, org, p) => out.summaryTable(await out.summary(q, org, 'intake', p.from, p.to), org.name),
  },
  outcomes: {
    areas: ['animals'],
    build: async (q, org, p) => out.summaryTable(await out.summary(q, org, 'outcome', p.from, p.to), org.name),
  },
  'length-of-stay': {
    areas: ['animals'],
    build: async (q, org, p) => out.losTable(await out.lengthOfStay(q, org, p.from, p.to), org.name),
  },
  'in-care': { areas: ['animals'], build: async (q, org, p) => out.inCareTable(await out.inCareOn(q, org, p.to), org.name) },
  'medical-due': { areas: ['animals'], build: async (q, org, p) => ev.medicalDueTable(await ev.medicalDue(q, org, p.to, 30), org.name) },
  vaccinations: { areas: ['animals'], build: async (q, org, p) => ev.vaccinationsTable(q, org, p.from, p.to, null) },
  'foster-homes': { areas: ['animals'], build: async (q, org, p) => ev.fosterTable(await ev.fosterHomes(q, org, p.to), org.name) },
  adoptions: {
    areas: ['animals'],
    build: async (q, org, p) => ev.adoptionsTable(await ev.adoptionsReport(q, org, p.from, p.to), org.name),
  },
  donations: {
    areas: ['fundraising'],
    build: async (q, org, p) => ev.donationsTable(await ev.donationsReport(q, org, p.from, p.to), org.name),
  },
  'volunteer-hours': {
    areas: ['shifts'],
    build: async (q, org, p) => ev.hoursTable(await ev.volunteerHours(q, org, p.from, p.to), org.name),
  },
  'message-delivery': {
    areas: ['communications'],
    build: async (q, org, p) => ev.deliveryTable(await ev.messageDelivery(q, org, p.from, p.to), org.name),
  },
};
export const SCHEDULABLE_REPORTS = Object.keys(SCHEDULABLE);

const COLS = [
  'id',
  'name',
  'report',
  'species_group',
  'format',
  'recipients',
  'day_of_month',
  'active',
  'created_by',
  'created_at',
  'updated_at',
] as const;
/** A schedule as read, its species group and format narrowed to the values the writes (and format's CHECK) allow. */
export type ScheduleRow = Omit<Pick<Selectable<DB['report_schedules']>, (typeof COLS)[number]>, 'species_group' | 'format'> & {
  species_group: SpeciesGroup | null;
  format: 'csv' | 'xlsx' | 'pdf';
};
const narrow = (r: Pick<Selectable<DB['report_schedules']>, (typeof COLS)[number]>): ScheduleRow => r as ScheduleRow;

/** The schedule, optionally locked (FOR UPDATE); undefined when it is not on file. */
async function readSchedule(q: Queryable, orgId: string, id: string, lock: boolean): Promise<ScheduleRow | undefined> {
  let read = kx(q).selectFrom('report_schedules').select(COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) read = read.forUpdate();
  const row = await read.executeTakeFirst();
  return row && narrow(row);
}

export const periodOf = (month: string): Period => {
  const start = DateTime.fromISO(`${month}-01`, { zone: 'UTC' });
  return { month, from: start.toISODate() ?? '', to: start.endOf('month').toISODate() ?? '' };
};
/** The month a run on `day_of_month` of the month after it reports, and when that run is due (06:00 local). */
function nextRun(tz: string, day: number, now = DateTime.now()): { period: string; runAt: Date } {
  const local = now.setZone(tz);
  let run = local.startOf('month').set({ day, hour: 6 });
  if (run <= local) run = run.plus({ months: 1 });
  return { period: run.minus({ months: 1 }).toFormat('yyyy-MM'), runAt: run.toJSDate() };
}
export const lastCompleteMonth = (tz: string) => DateTime.now().setZone(tz).minus({ months: 1 }).toFormat('yyyy-MM');

function check(b: Partial<ScheduleRow>, grants: Grants) {
  const errors: Record<string, string[]> = {};
  const bad = (b.recipients ?? []).filter((a) => !isEmail(a));
  if (bad.length) errors.recipients = [`not email addresses: ${bad.join(', ')}`];
  if (b.species_group && b.report && !['sac', 'live-release-rate'].includes(b.report))
    errors.species_group = ['only the sac and live-release-rate reports take a species group'];
  if (Object.keys(errors).length) throw invalid(errors);
  const def = b.report ? SCHEDULABLE[b.report] : undefined;
  for (const area of def?.areas ?? []) if (!allows(grants, area, 'read')) throw new AppError('FORBIDDEN', forbiddenMessage(area, 'read'));
}

async function enqueueRun(q: Queryable, orgId: string, scheduleId: string, period: string, runAt?: Date) {
  return enqueueJob(q, orgId, JOB_KIND, { schedule_id: scheduleId, period }, { key: `${scheduleId}:${period}`, runAt });
}

/** What a new schedule is made of (`active` defaults to true). */
type NewSchedule = Omit<ScheduleRow, 'id' | 'created_by' | 'created_at' | 'updated_at' | 'active'> & { active?: boolean };

/** Creates a schedule, queues its first month and writes its audit row: one transaction. */
export async function createSchedule(db: Db, org: Organization, b: NewSchedule, grants: Grants, actor: string): Promise<ScheduleRow> {
  check(b, grants);
  return db.tx(async (q) => {
    const row = narrow(await insertSchedule(q, org.id, b, actor));
    const next = nextRun(org.time_zone, b.day_of_month);
    await enqueueRun(q, org.id, row.id, next.period, next.runAt);
    await audit(q, org.id, actor, 'create', 'report_schedule', row.id, { report: row.report });
    return row;
  });
}

function insertSchedule(q: Queryable, orgId: string, b: NewSchedule, actor: string) {
  return kx(q)
    .insertInto('report_schedules')
    .values({
      organization_id: orgId,
      id: newId('rsch'),
      name: b.name,
      report: b.report,
      species_group: b.species_group ?? null,
      format: b.format,
      recipients: b.recipients,
      day_of_month: b.day_of_month,
      active: b.active ?? true,
      created_by: actor,
    })
    .returning(COLS)
    .executeTakeFirstOrThrow();
}

export async function getSchedule(q: Queryable, orgId: string, id: string, lock = false): Promise<ScheduleRow> {
  const row = await readSchedule(q, orgId, id, lock);
  if (!row) throw notFound('report schedule');
  return row;
}

export async function listSchedules(q: Queryable, orgId: string, limit: number, offset: number): Promise<ScheduleRow[]> {
  const rows = await kx(q)
    .selectFrom('report_schedules')
    .select(COLS)
    .where('organization_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(narrow);
}

/** Changes a schedule (locked while it changes), queues its next month when active, and writes its audit row: one transaction. */
export async function updateSchedule(
  db: Db,
  org: Organization,
  id: string,
  patch: Partial<Omit<ScheduleRow, 'id' | 'report' | 'created_by' | 'created_at' | 'updated_at'>>,
  grants: Grants,
  actor: string,
): Promise<ScheduleRow> {
  return db.tx(async (q) => {
    const row = await changeSchedule(q, org, id, patch, grants);
    await audit(q, org.id, actor, 'update', 'report_schedule', row.id, patch);
    return row;
  });
}

async function changeSchedule(
  q: Queryable,
  org: Organization,
  id: string,
  patch: Partial<Omit<ScheduleRow, 'id' | 'report' | 'created_by' | 'created_at' | 'updated_at'>>,
  grants: Grants,
): Promise<ScheduleRow> {
  const cur = await getSchedule(q, org.id, id, true);
  const next = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  check(next, grants);
  const row = await kx(q)
    .updateTable('report_schedules')
    .set({
      name: next.name,
      species_group: next.species_group,
      format: next.format,
      recipients: next.recipients,
      day_of_month: next.day_of_month,
      active: next.active,
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', org.id)
    .where('id', '=', id)
    .returning(COLS)
    .executeTakeFirstOrThrow();
  if (next.active) {
    const run = nextRun(org.time_zone, next.day_of_month);
    await enqueueRun(q, org.id, id, run.period, run.runAt);
  }
  return narrow(row);
}

/** Deletes a schedule (404 when not on file) with its audit row: one transaction. */
export async function deleteSchedule(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    await getSchedule(q, orgId, id, true);
    await kx(q).deleteFrom('report_schedules').where('organization_id', '=', orgId).where('id', '=', id).execute();
    await audit(q, orgId, actor, 'delete', 'report_schedule', id, {});
  });
}

/** Queues the run for the last complete month now; null when that month's run is queued or done already. */
export async function runNow(db: Db, org: Organization, id: string): Promise<{ job_id: string | null; period: string }> {
  return db.tx(async (q) => {
    await getSchedule(q, org.id, id);
    const period = lastCompleteMonth(org.time_zone);
    return { job_id: await enqueueRun(q, org.id, id, period), period };
  });
}

/** A schedule with the months sent (newest first, at most 24). */
export async function scheduleWithRuns(q: Queryable, orgId: string, id: string) {
  const s = await getSchedule(q, orgId, id);
  return { ...s, runs: await runsOf(q, orgId, s.id) };
}

export async function runsOf(q: Queryable, orgId: string, id: string) {
  return kx(q)
    .selectFrom('report_schedule_runs')
    .select(['period', 'message_ids', 'sent_at'])
    .where('organization_id', '=', orgId)
    .where('schedule_id', '=', id)
    .orderBy('period', 'desc')
    .limit(24)
    .execute();
}

async function organization(q: Queryable, orgId: string): Promise<Organization | null> {
  const p = await organizationProfile(q, orgId);
  if (!p) return null;
  return {
    id: orgId,
    ...p,
    time_zone: await organizationTimeZone(q, orgId),
    currency: (await organizationCurrency(q, orgId)) ?? 'USD',
    country: (await organizationCountry(q, orgId)) ?? 'US',
  };
}

const MIME = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

/** One run: the month's report, emailed with its file, recorded as sent; then the next month is queued. */
export async function runSchedule(ctx: AppContext, orgId: string, scheduleId: string, period: string) {
  return ctx.db.tx(async (q) => {
    const s = await readSchedule(q, orgId, scheduleId, true);
    if (!s) return { skipped: 'the schedule was deleted' };
    const org = await organization(q, orgId);
    const def = SCHEDULABLE[s.report];
    if (!org || !def) return { skipped: 'unknown report' };
    const done = await kx(q)
      .selectFrom('report_schedule_runs')
      .select('period')
      .where('organization_id', '=', orgId)
      .where('schedule_id', '=', scheduleId)
      .where('period', '=', period)
      .executeTakeFirst();
    let messageIds: string[] = [];
    if (!done && s.active) {
      const table = await def.build(q, org, periodOf(period), s);
      const file = await tableFile(s.format, table);
      messageIds = await queueEmailWithAttachments(q, ctx.config, orgId, {
        to: s.recipients,
        subject: `${s.name}: ${table.title}`,
        text:
          `${table.title}\n\nThe ${s.format.toUpperCase()} file is attached. ` +
          `This report is sent every month by ${org.name}'s schedule "${s.name}".`,
        relatedType: 'report_schedule',
        relatedId: s.id,
        attachments: [{ filename: `${s.report}-${period}.${s.format}`, contentType: MIME[s.format], content: file }],
      });
      await kx(q)
        .insertInto('report_schedule_runs')
        .values({ organization_id: orgId, schedule_id: scheduleId, period, message_ids: messageIds })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    if (s.active) {
      const next = nextRun(org.time_zone, s.day_of_month);
      await enqueueRun(q, orgId, s.id, next.period, next.runAt);
    }
    return { period, message_ids: messageIds, sent: messageIds.length > 0 };
  });
}

defineJob<{ schedule_id: string; period: string }>(
  JOB_KIND,
  (ctx, job) => runSchedule(ctx, job.orgId, job.payload.schedule_id, job.payload.period),
  {
    maxAttempts: 5,
  },
);
