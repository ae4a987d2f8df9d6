import { personSuppression } from '../people/public.ts';
import type { Transporter } from 'nodemailer';
import type * as Nodemailer from 'nodemailer';
import { lazyRequire } from '../../platform/lazy.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const nodemailer = lazyRequire<typeof Nodemailer>('nodemailer');
import type { Db } from '../../platform/db/db.ts';
import type { AppContext } from '../../platform/context.ts';
import { base62 } from '../../platform/ids.ts';
import { recordChange } from '../../platform/changes.ts';
import { defineJob, RetryLater, runDueJobs } from '../../platform/jobs.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { MSG_COLS, SEND_JOB, toMessage, type MessageRow } from './messages.repository.ts';
import { addPlatformSuppression, optedOut, suppressionFor } from './delivery.repository.ts';
import { addSuppression } from './delivery.service.ts';
import { senderOf } from './delivery.repository.ts';

/** One SMTP provider of the ordered list (tier 1 first). */
export interface Provider {
  tier: number;
  name: string;
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  insecureTls: boolean;
  /** A development stand-in: each message is written as an .eml file in this folder instead of going out. */
  dir?: string;
}

/**
 * ARK_SMTP_PROVIDERS: comma-separated URLs, tier 1 first:
 * `smtp://user:pass@host:587` (STARTTLS when offered), `smtps://user:pass@host:465` (TLS from the start).
 * Query options: `name=<label>` (shown in the log instead of host:port), `tls=insecure` (accept any certificate).
 * User and password are URL-encoded. Credentials never reach the log.
 */
export function parseProviders(spec: string | undefined, dataDir = './data'): Provider[] {
  if (!spec?.trim()) return [];
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((raw, i) => {
      // Development: `files` (or `file:///a/folder`) writes each message as an .eml file, sending nothing.
      if (raw.toLowerCase() === 'files') return filesProvider(i + 1, path.join(dataDir, 'outbox'));
      if (raw.toLowerCase().startsWith('file:')) return filesProvider(i + 1, fileURLToPath(raw));
      let u: URL;
      try {
        u = new URL(raw);
      } catch {
        throw new Error(`ARK_SMTP_PROVIDERS entry ${i + 1} is not a URL (expected smtp://user:pass@host:port)`);
      }
      if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
        throw new Error(`ARK_SMTP_PROVIDERS entry ${i + 1} must start with smtp:// or smtps:// (or be \`files\` in development)`);
      const secure = u.protocol === 'smtps:';
      const port = u.port ? Number(u.port) : secure ? 465 : 587;
      const host = u.hostname.replace(/^\[|\]$/g, '');
      return {
        tier: i + 1,
        name: u.searchParams.get('name') ?? `${host}:${port}`,
        host,
        port,
        secure,
        user: u.username ? decodeURIComponent(u.username) : undefined,
        pass: u.password ? decodeURIComponent(u.password) : undefined,
        insecureTls: u.searchParams.get('tls') === 'insecure',
      };
    });
}

const filesProvider = (tier: number, dir: string): Provider => ({
  tier,
  name: 'files',
  host: '',
  port: 0,
  secure: false,
  insecureTls: false,
  dir: path.resolve(dir),
});

interface SmtpError {
  responseCode?: number;
  response?: string;
  command?: string;
  code?: string;
  message: string;
}
/** Commands before DATA: a failure there means the provider did not take the message. */
const BEFORE_DATA = [
  'CONN',
  'EHLO',
  'HELO',
  'STARTTLS',
  'AUTH',
  'AUTH PLAIN',
  'AUTH LOGIN',
  'AUTH XOAUTH2',
  'AUTH CRAM-MD5',
  'MAIL FROM',
  'RCPT TO',
  'API',
];

export function classify(e: SmtpError): 'hard_bounce' | 'rejected' | 'ambiguous' {
  if (e.responseCode && e.responseCode >= 500 && e.command === 'RCPT TO') return 'hard_bounce';
  if (e.responseCode) return 'rejected';
  if (e.command && BEFORE_DATA.includes(e.command)) return 'rejected';
  if (e.code === 'ECONNECTION' || (e.code === 'ETIMEDOUT' && !e.command)) return 'rejected';
  return 'ambiguous';
}
function errorText(e: SmtpError) {
  return (e.response ?? e.message).slice(0, 500);
}

/**
 * Outbound mail runs on the kernel job queue (src/platform/jobs.ts): each queued message has one job of kind
 * `communications.send`, keyed by the message id and added in the transaction that logs the message, so a logged
 * message always has its job and never two. The message row keeps its own visible state (status, attempts,
 * `payload_metadata`); the job only carries the work. See docs/communications.md, "Queue, failover and the
 * at-most-once rule".
 */
export interface MailOptions {
  /** The providers in order (default: ARK_SMTP_PROVIDERS). */
  providers?: Provider[] | string;
  /** Attempts (rounds over every provider) before the message is `failed` (default 5). */
  maxAttempts?: number;
  /** Wait before the second round; doubled each round after (default 60 s). */
  retryBaseMs?: number;
}

/** What a message left mid-conversation by a stopped worker records: it is never resent, a person reviews it. */
const OUTCOME_UNKNOWN = {
  error:
    'the worker stopped during the SMTP conversation; the provider may have accepted it, so it is not resent (at most once); ' +
    'needs review',
  needs_review: true,
  reason: 'outcome_unknown',
};

const transports = new Map<string, Transporter>();
function transport(p: Provider, clientName: string) {
  const id = JSON.stringify([p.dir ?? '', p.host, p.port, p.secure, p.user ?? '', p.pass ?? '', p.insecureTls, clientName]);
  let t = transports.get(id);
  if (!t) {
    t = p.dir
      ? nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      : nodemailer().createTransport({
          host: p.host,
          port: p.port,
          secure: p.secure,
          auth: p.user ? { user: p.user, pass: p.pass ?? '' } : undefined,
          tls: p.insecureTls ? { rejectUnauthorized: false } : undefined,
          name: clientName,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 60_000,
        });
    transports.set(id, t);
  }
  return t;
}
/** Closes the cached SMTP transports (the module's stop). */
export function closeTransports() {
  for (const t of transports.values()) t.close();
  transports.clear();
}

const parsed = new Map<string, Provider[]>();
function providersOf(ctx: AppContext, given: MailOptions['providers']): Provider[] {
  if (Array.isArray(given)) return given;
  const spec = given ?? ctx.config.smtpProviders ?? '';
  const id = `${ctx.config.dataDir}\n${spec}`;
  let list = parsed.get(id);
  if (!list) parsed.set(id, (list = parseProviders(spec, ctx.config.dataDir)));
  return list;
}

/**
 * Takes the message for this run: a `queued` one, or a `sending` one whose earlier run stopped before any provider
 * was contacted (its job was claimed again after that worker died). Marks it `sending` under this run's token and
 * counts the attempt. Null when there is nothing to send.
 */
async function take(db: Db, orgId: string, id: string, token: string): Promise<MessageRow | null> {
  const row = await kx(db)
    .updateTable('comm_messages as m')
    .set({
      status: 'sending',
      attempt_token: token,
      locked_at: sql`now()`,
      smtp_started_at: null,
      attempts: sql`attempts + 1`,
      updated_at: sql`now()`,
    })
    .where('m.organization_id', '=', orgId)
    .where('m.id', '=', id)
    .where('m.direction', '=', 'outbound')
    .where(sql<boolean>`(m.status = 'queued' OR (m.status = 'sending' AND m.smtp_started_at IS NULL))`)
    .returning(MSG_COLS)
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** A message an earlier run left in the middle of an SMTP conversation: failed, needs review, never resent. */
async function closeUnknown(db: Db, orgId: string, id: string): Promise<boolean> {
  const r = await kx(db)
    .updateTable('comm_messages')
    .set({
      status: 'failed',
      attempt_token: null,
      updated_at: sql`now()`,
      payload_metadata: sql`payload_metadata || ${JSON.stringify(OUTCOME_UNKNOWN)}::jsonb`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('smtp_started_at', 'is not', null)
    .returning('id')
    .execute();
  return r.length > 0;
}

type Outcome = 'sent' | 'suppressed' | 'bounced' | 'failed' | 'needs_review' | 'nothing_to_do' | 'claim_lost';

/** Sends one logged message (the job's handler); throws RetryLater when every provider refused and attempts remain. */
export async function sendMessage(ctx: AppContext, orgId: string, id: string, opts: MailOptions = {}): Promise<Outcome> {
  const db = ctx.db;
  const providers = providersOf(ctx, opts.providers);
  const maxAttempts = opts.maxAttempts ?? 5;
  const retryBaseMs = opts.retryBaseMs ?? 60_000;
  const clientName = ctx.config.mailDomain;
  const token = base62(24);
  const m = await take(db, orgId, id, token);
  if (!m) return (await closeUnknown(db, orgId, id)) ? 'needs_review' : 'nothing_to_do';

  /** An update of this message that holds only while this run owns it (its attempt token). */
  const owned = async (set: Record<string, unknown>) =>
    (
      await kx(db)
        .updateTable('comm_messages')
        .set({ ...set, updated_at: sql`now()` })
        .where('organization_id', '=', m.organization_id)
        .where('id', '=', m.id)
        .where('attempt_token', '=', token)
        .returning('id')
        .execute()
    ).length > 0;
  const merge = (value: Record<string, unknown>) => sql`payload_metadata || ${JSON.stringify(value)}::jsonb`;
  const recordAttempt = (attempt: Record<string, unknown>, set: Record<string, unknown> = {}) =>
    owned({
      payload_metadata: sql`jsonb_set(payload_metadata, '{failover_attempts}',
        coalesce(payload_metadata->'failover_attempts', '[]'::jsonb) || ${JSON.stringify([attempt])}::jsonb)`,
      smtp_started_at: null,
      ...set,
    });

  // A suppression, an opt-out or a death recorded after the message was queued still stops it.
  const hit = await suppressionFor(db, m.organization_id, m.recipient_address);
  const person = m.person_id ? await personSuppression(db, m.organization_id, m.person_id) : null;
  const stopped = hit
    ? { reason: 'suppressed_address', suppression_scope: hit.scope, suppression_reason: hit.reason }
    : (await optedOut(db, m.organization_id, m.person_id, m.category))
      ? { reason: 'opted_out', suppression_scope: 'organization', suppression_reason: `opted out of ${m.category}` }
      : person
        ? { reason: person.reason, suppression_scope: 'person', suppression_reason: person.detail }
        : null;
  if (stopped) {
    await owned({ status: 'suppressed', attempt_token: null, payload_metadata: merge(stopped) });
    return 'suppressed';
  }
  const sender = await senderOf(db, m.organization_id);
  const from = m.from_address ?? '';
  const fromDomain = from.replace(/^.*@/, '').replace(/>$/, '');
  const messageId = m.message_id_header ?? `<${m.id}@${fromDomain}>`;
  const mail = {
    from,
    to: m.recipient_address,
    cc: m.cc.length ? m.cc : undefined,
    bcc: m.bcc.length ? m.bcc : undefined,
    subject: m.subject,
    text: m.body_text ?? '',
    html: m.body_html ?? undefined,
    messageId,
    headers: { ...m.headers },
    replyTo: m.headers['Reply-To'],
    dkim:
      sender?.dkim_private_key && sender.dkim_selector
        ? { domainName: fromDomain, keySelector: sender.dkim_selector, privateKey: sender.dkim_private_key }
        : undefined,
  };
  delete mail.headers['Reply-To'];
  const files = await kx(db)
    .selectFrom('comm_attachments')
    .select(['filename', 'content_type', 'content'])
    .where('organization_id', '=', m.organization_id)
    .where('message_id', '=', m.id)
    .orderBy('position')
    .execute();
  if (files.length)
    Object.assign(mail, { attachments: files.map((f) => ({ filename: f.filename, contentType: f.content_type, content: f.content })) });
  const errors: string[] = [];
  for (const p of providers) {
    // The moment before the conversation: from here until the outcome is recorded, a stop leaves it for review.
    if (!(await owned({ smtp_started_at: sql`now()` }))) return 'claim_lost';
    const attempt = { tier: p.tier, provider: p.name, attempted_at: new Date().toISOString() };
    try {
      const info = (await transport(p, clientName).sendMail(mail)) as { response?: string; messageId?: string; message?: Buffer };
      let pid: string | null;
      if (p.dir) {
        // The files stand-in: the whole message as the provider would have received it, named by the message id.
        await mkdir(p.dir, { recursive: true });
        pid = `${m.id}.eml`;
        await writeFile(path.join(p.dir, pid), info.message ?? '');
      } else {
        const response = info.response ?? '';
        pid = /queued as ([^\s]+)/i.exec(response)?.[1] ?? /\bid=([^\s]+)/i.exec(response)?.[1] ?? info.messageId ?? null;
      }
      // Acceptance is recorded at once: from here on this message is never sent again (a run of its job after a
      // crash finds it `sent` and does nothing).
      await recordAttempt(
        { ...attempt, success: true, error: null, provider_message_id: pid },
        { status: 'sent', provider: p.name, provider_message_id: pid, attempt_token: null },
      );
      return 'sent';
    } catch (err) {
      const e = err as SmtpError;
      const kind = classify(e);
      errors.push(`${p.name}: ${errorText(e)}`);
      await recordAttempt({ ...attempt, success: false, error: errorText(e), provider_message_id: null });
      if (kind === 'hard_bounce') {
        await db.tx(async (q) => {
          await addSuppression(q, m.organization_id, null, m.recipient_address, 'hard_bounce', 'bounce');
          await addPlatformSuppression(q, m.recipient_address, 'hard_bounce', 'hard_bounce');
          await recordChange(q, m.organization_id, {
            event: 'message.bounced',
            entity: 'message',
            id: m.id,
            fields: { person_id: m.person_id, recipient_address: m.recipient_address, category: m.category },
          });
        });
        await owned({
          status: 'bounced',
          provider: p.name,
          attempt_token: null,
          payload_metadata: merge({ error: errorText(e), reason: 'hard_bounce' }),
        });
        return 'bounced';
      }
      if (kind === 'ambiguous') {
        // The provider may have taken it: at most once, so it is not tried again anywhere.
        await owned({
          status: 'failed',
          provider: p.name,
          attempt_token: null,
          payload_metadata: merge({
            error: `outcome unknown (${errorText(e)}); not resent, needs review`,
            needs_review: true,
            reason: 'outcome_unknown',
          }),
        });
        return 'needs_review';
      }
    }
  }
  const error = providers.length ? `every provider refused: ${errors.join('; ')}` : 'no SMTP provider is configured';
  if (m.attempts >= maxAttempts || !providers.length) {
    await owned({ status: 'failed', attempt_token: null, payload_metadata: merge({ error, reason: 'delivery_failed' }) });
    return 'failed';
  }
  const wait = retryBaseMs * 2 ** (m.attempts - 1);
  const requeued = await owned({
    status: 'queued',
    attempt_token: null,
    locked_at: null,
    next_attempt_at: sql`now() + ${wait}::double precision * interval '1 millisecond'`,
    payload_metadata: merge({ error }),
  });
  if (!requeued) return 'claim_lost';
  // Queued again: the job runs again after the back-off without counting as a failed job.
  throw new RetryLater(wait, error);
}

/** Options a run on demand (`sendQueuedMail`, tests) passes to the handler; none in production. */
let runOptions: MailOptions = {};

defineJob<{ message_id: string }>(
  SEND_JOB,
  async (ctx, job) => {
    const outcome = await sendMessage(ctx, job.orgId, job.payload.message_id, runOptions);
    // One job per message: the message row is the record, so finished send jobs are kept a week, then removed.
    await sql`DELETE FROM jobs WHERE (organization_id, id) IN (
        SELECT organization_id, id FROM jobs WHERE organization_id = ${job.orgId} AND kind = ${SEND_JOB} AND status = 'done'
           AND created_at < now() - interval '7 days' LIMIT 100)`.execute(kx(ctx.db));
    return { outcome };
  },
  {
    // A job fails only when the database does (a refused message is retried by RetryLater, its rounds counted on the
    // message): 20 tries, minutes apart, outlast a database restart.
    maxAttempts: 20,
    // Longer than one SMTP conversation's timeouts; the worker renews it while the handler runs.
    leaseMs: 2 * 60_000,
    concurrency: 4,
  },
);

/**
 * Sends this organization's due mail now (tests, which share one database): runs its due send jobs with `opts` in
 * place of the configured providers and retry settings. Answers how many jobs ran.
 */
export async function sendQueuedMail(ctx: AppContext, orgId: string, opts: MailOptions = {}): Promise<number> {
  const before = runOptions;
  runOptions = opts;
  try {
    return await runDueJobs(ctx, { orgId, kinds: [SEND_JOB] });
  } finally {
    runOptions = before;
  }
}
