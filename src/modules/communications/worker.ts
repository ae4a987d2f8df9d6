import { personSuppression } from '../people/public.ts';
import type { Transporter } from 'nodemailer';
import type * as Nodemailer from 'nodemailer';
import { lazyRequire } from '../../platform/lazy.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const nodemailer = lazyRequire<typeof Nodemailer>('nodemailer');
import { superviseListener, type Listener } from '../../platform/db/listen.ts';
import type { Db } from '../../platform/db/db.ts';
import { base62 } from '../../platform/ids.ts';
import { recordChange } from '../../platform/changes.ts';
import { MSG_COLS, type MessageRow } from './messages.repository.ts';
import { addPlatformSuppression, optedOut, suppressionFor } from './delivery.repository.ts';
import { addSuppression } from './delivery.service.ts';
import { senderOf } from './delivery.repository.ts';
import { QUEUE_CHANNEL } from './messages.service.ts';

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

export interface WorkerOptions {
  providers: Provider[] | string | undefined;
  /** ARK_DATA_DIR: where the `files` provider's `outbox/` folder is. */
  dataDir?: string;
  /** How often to look for due messages without a wake-up (ms). */
  pollMs?: number;
  /** A claim older than this is treated as a crashed worker's (ms). Longer than one message's SMTP time. */
  leaseMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  batch?: number;
  /** Our host name in EHLO. */
  clientName?: string;
  /** Only these organizations' messages (tests share one database); default all. */
  organizations?: string[];
}

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

export interface OutboundWorker {
  /** Claims and sends what is due now; resolves with how many messages it handled. */
  runOnce(): Promise<number>;
  /** Releases or closes claims left by a crashed worker (see docs: at most once). */
  recover(): Promise<{ requeued: number; needsReview: number }>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The durable outbound queue: messages wait in comm_messages (`queued`). A worker claims them with
 * FOR UPDATE SKIP LOCKED, marks them `sending` with its own attempt token, notes the moment before
 * each SMTP conversation (smtp_started_at), and records the outcome of every attempt at once.
 * Cross-organization by nature: the claim is the one statement not scoped by organization.
 */
/** What a message left mid-conversation by a stopped worker records: it is never resent, a person reviews it. */
const OUTCOME_UNKNOWN = JSON.stringify({
  error:
    'the worker stopped during the SMTP conversation; the provider may have accepted it, so it is not resent (at most once); ' +
    'needs review',
  needs_review: true,
  reason: 'outcome_unknown',
});

export function createOutboundWorker(db: Db, opts: WorkerOptions): OutboundWorker {
  const providers =
    typeof opts.providers === 'string' || opts.providers === undefined ? parseProviders(opts.providers, opts.dataDir) : opts.providers;
  const leaseMs = opts.leaseMs ?? 10 * 60_000;
  const maxAttempts = opts.maxAttempts ?? 5;
  const retryBaseMs = opts.retryBaseMs ?? 60_000;
  const batch = opts.batch ?? 10;
  const orgs = opts.organizations ?? null;
  const transports = new Map<number, Transporter>();
  const transport = (p: Provider) => {
    let t = transports.get(p.tier);
    if (!t && p.dir) {
      t = nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      transports.set(p.tier, t);
    }
    if (!t) {
      t = nodemailer().createTransport({
        host: p.host,
        port: p.port,
        secure: p.secure,
        auth: p.user ? { user: p.user, pass: p.pass ?? '' } : undefined,
        tls: p.insecureTls ? { rejectUnauthorized: false } : undefined,
        name: opts.clientName,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
      });
      transports.set(p.tier, t);
    }
    return t;
  };

  const owned = async (m: MessageRow, token: string, set: string, params: unknown[] = []) =>
    (
      await db.query(
        `UPDATE comm_messages SET ${set}, updated_at = now() WHERE organization_id = $1 AND id = $2 AND attempt_token = $3 RETURNING id`,
        [m.organization_id, m.id, token, ...params],
      )
    ).length > 0;

  async function recordAttempt(m: MessageRow, token: string, attempt: Record<string, unknown>, extra = '', params: unknown[] = []) {
    return owned(
      m,
      token,
      `payload_metadata = jsonb_set(payload_metadata, '{failover_attempts}', coalesce(payload_metadata->'failover_attempts', ` +
        `'[]'::jsonb) || $4::jsonb), smtp_started_at = NULL${extra}`,
      [JSON.stringify([attempt]), ...params],
    );
  }

  /** A person flagged deceased after the message was queued still receives nothing. */
  async function deceased(m: MessageRow) {
    const p = m.person_id ? await personSuppression(db, m.organization_id, m.person_id) : null;
    return p ? { reason: p.reason, suppression_scope: 'person', suppression_reason: p.detail } : null;
  }

  async function deliver(m: MessageRow, token: string) {
    const hit = await suppressionFor(db, m.organization_id, m.recipient_address);
    const stopped = hit
      ? { reason: 'suppressed_address', suppression_scope: hit.scope, suppression_reason: hit.reason }
      : (await optedOut(db, m.organization_id, m.person_id, m.category))
        ? { reason: 'opted_out', suppression_scope: 'organization', suppression_reason: `opted out of ${m.category}` }
        : await deceased(m);
    if (stopped) {
      await owned(m, token, "status = 'suppressed', attempt_token = NULL, payload_metadata = payload_metadata || $4::jsonb", [
        JSON.stringify(stopped),
      ]);
      return;
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
    const files = await db.query<{ filename: string; content_type: string; content: Buffer }>(
      'SELECT filename, content_type, content FROM comm_attachments WHERE organization_id = $1 AND message_id = $2 ORDER BY position',
      [m.organization_id, m.id],
    );
    if (files.length)
      Object.assign(mail, { attachments: files.map((f) => ({ filename: f.filename, contentType: f.content_type, content: f.content })) });
    const errors: string[] = [];
    for (const p of providers) {
      if (!(await owned(m, token, 'smtp_started_at = now()'))) return; // claim lost: another worker recovered it
      const attempt = { tier: p.tier, provider: p.name, attempted_at: new Date().toISOString() };
      try {
        const info = (await transport(p).sendMail(mail)) as { response?: string; messageId?: string; message?: Buffer };
        if (p.dir) {
          // The files stand-in: the whole message as the provider would have received it, named by the message id.
          await mkdir(p.dir, { recursive: true });
          const file = `${m.id}.eml`;
          await writeFile(path.join(p.dir, file), info.message ?? '');
          await recordAttempt(
            m,
            token,
            { ...attempt, success: true, error: null, provider_message_id: file },
            ", status = 'sent', provider = $5, provider_message_id = $6, attempt_token = NULL",
            [p.name, file],
          );
          return;
        }
        const response = info.response ?? '';
        const pid = /queued as ([^\s]+)/i.exec(response)?.[1] ?? /\bid=([^\s]+)/i.exec(response)?.[1] ?? info.messageId ?? null;
        // Acceptance is recorded at once: from here on this message is never sent again.
        await recordAttempt(
          m,
          token,
          { ...attempt, success: true, error: null, provider_message_id: pid },
          ", status = 'sent', provider = $5, provider_message_id = $6, attempt_token = NULL",
          [p.name, pid],
        );
        return;
      } catch (err) {
        const e = err as SmtpError;
        const kind = classify(e);
        errors.push(`${p.name}: ${errorText(e)}`);
        await recordAttempt(m, token, { ...attempt, success: false, error: errorText(e), provider_message_id: null });
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
          await owned(
            m,
            token,
            "status = 'bounced', provider = $4, attempt_token = NULL, payload_metadata = payload_metadata || $5::jsonb",
            [p.name, JSON.stringify({ error: errorText(e), reason: 'hard_bounce' })],
          );
          return;
        }
        if (kind === 'ambiguous') {
          // The provider may have taken it: at most once, so it is not tried again anywhere.
          await owned(
            m,
            token,
            "status = 'failed', provider = $4, attempt_token = NULL, payload_metadata = payload_metadata || $5::jsonb",
            [
              p.name,
              JSON.stringify({
                error: `outcome unknown (${errorText(e)}); not resent, needs review`,
                needs_review: true,
                reason: 'outcome_unknown',
              }),
            ],
          );
          return;
        }
      }
    }
    const final = m.attempts >= maxAttempts || !providers.length;
    const error = providers.length ? `every provider refused: ${errors.join('; ')}` : 'no SMTP provider is configured';
    if (final) {
      await owned(m, token, "status = 'failed', attempt_token = NULL, payload_metadata = payload_metadata || $4::jsonb", [
        JSON.stringify({ error, reason: 'delivery_failed' }),
      ]);
    } else {
      await owned(
        m,
        token,
        "status = 'queued', attempt_token = NULL, locked_at = NULL, next_attempt_at = now() + ($4::double precision * interval " +
          "'1 millisecond'), payload_metadata = payload_metadata || $5::jsonb",
        [retryBaseMs * 2 ** (m.attempts - 1), JSON.stringify({ error })],
      );
    }
  }

  async function recover() {
    const requeued = await db.query(
      `UPDATE comm_messages SET status = 'queued', attempt_token = NULL, locked_at = NULL, updated_at = now()
        WHERE status = 'sending' AND smtp_started_at IS NULL AND locked_at < now() - ($1::double precision * interval '1 millisecond')
          AND ($2::text[] IS NULL OR organization_id = ANY($2)) RETURNING id`,
      [leaseMs, orgs],
    );
    const review = await db.query(
      `UPDATE comm_messages SET status = 'failed', attempt_token = NULL, updated_at = now(),
          payload_metadata = payload_metadata || $3::jsonb
        WHERE status = 'sending' AND smtp_started_at IS NOT NULL AND locked_at < now() - ($1::double precision * interval '1 millisecond')
          AND ($2::text[] IS NULL OR organization_id = ANY($2)) RETURNING id`,
      [leaseMs, orgs, OUTCOME_UNKNOWN],
    );
    return { requeued: requeued.length, needsReview: review.length };
  }

  async function runOnce() {
    await recover();
    const token = base62(24);
    const claimed = await db.query<MessageRow>(
      `UPDATE comm_messages m SET status = 'sending', attempt_token = $1, locked_at = now(), smtp_started_at = NULL, attempts =
        m.attempts + 1, updated_at = now()
         FROM (SELECT organization_id, id FROM comm_messages WHERE status = 'queued' AND direction = 'outbound' AND next_attempt_at <= now()
                  AND ($3::text[] IS NULL OR organization_id = ANY($3))
                ORDER BY next_attempt_at, created_at LIMIT $2 FOR UPDATE SKIP LOCKED) c
        WHERE m.organization_id = c.organization_id AND m.id = c.id RETURNING ${MSG_COLS.split(',')
          .map((c) => `m.${c.trim()}`)
          .join(', ')}`,
      [token, batch, orgs],
    );
    for (const m of claimed) await deliver(m, token);
    return claimed.length;
  }

  let timer: NodeJS.Timeout | null = null;
  let listener: Listener | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        while ((await runOnce()) > 0 && !stopped) {
          /* drain */
        }
      } catch {
        // a failed round is retried by the next tick
      } finally {
        running = null;
        if (again && !stopped) {
          again = false;
          tick();
        }
      }
    })();
  };
  return {
    runOnce,
    recover,
    start() {
      timer = setInterval(tick, opts.pollMs ?? 5000);
      // One supervised LISTEN connection (src/platform/db/listen.ts); each (re)connection looks for due mail.
      listener = superviseListener({ url: db.directUrl, name: 'mail', channels: [QUEUE_CHANNEL], onNotify: tick, onListening: tick });
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await listener?.close();
      await running;
      for (const t of transports.values()) t.close();
    },
  };
}
