import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { base62 } from '../../platform/ids.ts';
import { queueOrganizationNotice } from '../communications/public.ts';
import { isInternalAddress, sign } from './signing.ts';

/** How the delivery worker behaves; every value has a production default. */
export interface DeliveryOptions {
  /** Only these organizations (tests share one database); default all. */
  organizations?: string[];
  /** One request's time limit (ms). */
  timeoutMs?: number;
  /** First retry delay (ms); each retry doubles it, up to `maxDelayMs`, with ±50% jitter. */
  retryBaseMs?: number;
  maxDelayMs?: number;
  /** A delivery still failing this long after its first attempt is given up (ms): about three days. */
  giveUpAfterMs?: number;
  /** Failed attempts in a row, across the endpoint's deliveries, that pause it. */
  pauseAfter?: number;
  /** A claim older than this is a crashed worker's: the delivery is sent again, same webhook-id (ms). */
  leaseMs?: number;
  batch?: number;
  /** Allows http and loopback/private addresses (development, tests). */
  allowInsecure?: boolean;
  /** Tests: called after the request was answered and before the outcome is recorded (a crash there). */
  afterSend?: (deliveryId: string) => void | Promise<void>;
  now?: () => Date;
}

export const DEFAULTS = {
  timeoutMs: 15_000,
  retryBaseMs: 30_000,
  maxDelayMs: 8 * 3600_000,
  giveUpAfterMs: 3 * 24 * 3600_000,
  pauseAfter: 50,
  leaseMs: 5 * 60_000,
  batch: 20,
};

/** Delay before retry number `attempts` (1 = after the first failure): exponential, capped, ±50% jitter. */
export function backoffMs(attempts: number, base: number, max: number, rand = Math.random): number {
  const plain = Math.min(max, base * 2 ** Math.min(attempts - 1, 30));
  return Math.round(plain * (0.5 + rand()));
}

interface Claimed {
  organization_id: string;
  id: string;
  endpoint_id: string;
  body: string;
  attempts: number;
  attempt_token: string;
  first_attempt_at: Date;
  url: string;
  secret: string;
}

export interface SendResult {
  status: number | null;
  ok: boolean;
  error: string | null;
  ms: number;
  start: string;
}

/**
 * POSTs one signed body. The host name is resolved here and the connection goes to the address just
 * checked (no second lookup an attacker's DNS could answer differently).
 */
export async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowInsecure: boolean },
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  let family: number;
  try {
    if (isIP(host)) {
      address = host;
      family = isIP(host);
    } else {
      const found = await lookup(host, { all: true });
      const first = found[0];
      if (!first) throw new Error('no address');
      if (!opts.allowInsecure && found.some((a) => isInternalAddress(a.address)))
        return { status: null, ok: false, error: `refused: ${host} resolves to an internal address`, ms: elapsed(), start: '' };
      address = first.address;
      family = first.family;
    }
  } catch (err) {
    return { status: null, ok: false, error: `could not resolve ${host}: ${(err as Error).message}`, ms: elapsed(), start: '' };
  }
  if (!opts.allowInsecure && (isInternalAddress(address) || u.protocol !== 'https:'))
    return { status: null, ok: false, error: `refused: ${address} is not a public https address`, ms: elapsed(), start: '' };
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let done = false;
    const finish = (r: Omit<SendResult, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: elapsed() });
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Ark-Webhooks/1',
        },
        lookup: (_h, _o, cb) => cb(null, address, family),
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 1024) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const start = Buffer.concat(chunks).toString('utf8').slice(0, 1024);
          finish({ status, ok: status >= 200 && status < 300, error: status >= 200 && status < 300 ? null : `answered ${status}`, start });
        });
        res.on('error', (e) => finish({ status: res.statusCode ?? null, ok: false, error: e.message, start: '' }));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    });
    req.on('error', (e) => finish({ status: null, ok: false, error: e.message, start: '' }));
    req.end(body);
  });
}

/**
 * Turns committed changes into deliveries: per organization, under its cursor row's lock, the changes
 * after the cursor in commit order become one delivery per endpoint that wants the event (paused ones
 * too: they keep their backlog and receive it, in order, when enabled again).
 */
export async function fanOut(db: Db, organizations?: string[]): Promise<number> {
  const orgs = await db.query<{ organization_id: string }>(
    `SELECT DISTINCT organization_id FROM webhook_endpoints ${organizations ? 'WHERE organization_id = ANY($1)' : ''}`,
    organizations ? [organizations] : [],
  );
  let made = 0;
  for (const { organization_id: orgId } of orgs) {
    for (;;) {
      const n = await db.tx(async (q) => {
        await q.query('INSERT INTO webhook_cursors (organization_id) VALUES ($1) ON CONFLICT DO NOTHING', [orgId]);
        const cur = (
          await q.query<{ commit_seq: string; pos: string }>(
            'SELECT commit_seq, pos FROM webhook_cursors WHERE organization_id = $1 FOR UPDATE SKIP LOCKED',
            [orgId],
          )
        )[0];
        if (!cur) return 0;
        const changes = await q.query<{ commit_seq: string; pos: string }>(
          `SELECT commit_seq, pos FROM ark_changes WHERE organization_id = $1 AND commit_seq IS NOT NULL AND (commit_seq, pos) > ($2, $3)
            ORDER BY commit_seq, pos LIMIT 500`,
          [orgId, cur.commit_seq, cur.pos],
        );
        const last = changes[changes.length - 1];
        if (!last) return 0;
        const rows = await q.query(
          `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, commit_seq, change_pos, event, entity_id, body)
           SELECT c.organization_id, 'msg_' || e.id || '_' || c.commit_seq || '_' || c.pos, e.id, c.commit_seq, c.pos, c.event, c.entity_id,
                  json_build_object('type', c.event,
                    'timestamp', to_char(c.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'data', json_build_object('object', c.entity_type, 'id', c.entity_id, 'fields', c.fields,
                      'cursor', c.commit_seq || '-' || c.pos))::text
             FROM ark_changes c JOIN webhook_endpoints e ON e.organization_id = c.organization_id
            WHERE c.organization_id = $1 AND (c.commit_seq, c.pos) > ($2, $3) AND (c.commit_seq, c.pos) <= ($4, $5)
              AND c.event = ANY(e.events) AND c.commit_seq > e.start_seq
           ON CONFLICT DO NOTHING RETURNING id`,
          [orgId, cur.commit_seq, cur.pos, last.commit_seq, last.pos],
        );
        await q.query('UPDATE webhook_cursors SET commit_seq = $2, pos = $3 WHERE organization_id = $1', [
          orgId,
          last.commit_seq,
          last.pos,
        ]);
        made += rows.length;
        return changes.length;
      });
      if (n < 500) break;
    }
  }
  return made;
}

/**
 * One pass of the delivery worker: gives crashed workers' claims back, fans out new changes, then
 * claims due deliveries (FOR UPDATE SKIP LOCKED; never one whose record has an earlier delivery to the
 * same endpoint still pending, so each record's events arrive in order), sends them and records each
 * outcome. Returns how many were sent.
 */
export async function deliverDue(ctx: Pick<AppContext, 'db' | 'config'>, options: DeliveryOptions = {}): Promise<number> {
  const o = { ...DEFAULTS, ...options };
  const allowInsecure = options.allowInsecure ?? ctx.config.webhooksAllowInsecure;
  const db = ctx.db;
  const orgs = options.organizations ?? null;
  // A claim whose lease ran out belongs to a worker that stopped between sending and recording: the
  // receiver may have it already, so it goes again with the same webhook-id (at least once).
  await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempt_token = NULL, lease_until = NULL
      WHERE status = 'sending' AND lease_until < now() ${orgs ? 'AND organization_id = ANY($1)' : ''}`,
    orgs ? [orgs] : [],
  );
  await fanOut(db, orgs ?? undefined);
  const token = base62(16);
  const claimed = await db.query<Claimed>(
    `WITH due AS (
       SELECT d.organization_id, d.id FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id AND e.enabled
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() ${orgs ? 'AND d.organization_id = ANY($4)' : ''}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                           WHERE p.organization_id = d.organization_id AND p.endpoint_id = d.endpoint_id AND p.entity_id = d.entity_id
                             AND p.status IN ('pending', 'sending') AND (p.commit_seq, p.change_pos) < (d.commit_seq, d.change_pos))
        ORDER BY d.commit_seq, d.change_pos LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries w SET status = 'sending', attempt_token = $2, lease_until = now() + ($3 || ' milliseconds')::interval,
            attempts = w.attempts + 1, first_attempt_at = coalesce(w.first_attempt_at, now()), last_attempt_at = now()
       FROM due, webhook_endpoints e
      WHERE w.organization_id = due.organization_id AND w.id = due.id AND e.organization_id = w.organization_id AND e.id = w.endpoint_id
     RETURNING w.organization_id, w.id, w.endpoint_id, w.body, w.attempts, w.attempt_token, w.first_attempt_at, e.url, e.secret`,
    orgs ? [o.batch, token, String(o.leaseMs), orgs] : [o.batch, token, String(o.leaseMs)],
  );
  for (const d of claimed) {
    const ts = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
    const result = await post(
      d.url,
      { 'webhook-id': d.id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(d.secret, d.id, ts, d.body) },
      d.body,
      { timeoutMs: o.timeoutMs, allowInsecure },
    );
    await options.afterSend?.(d.id);
    await record(ctx, d, result, o);
  }
  return claimed.length;
}

async function record(ctx: Pick<AppContext, 'db' | 'config'>, d: Claimed, r: SendResult, o: typeof DEFAULTS) {
  await ctx.db.tx(async (q) => {
    const mine = await q.query(
      "SELECT 1 FROM webhook_deliveries WHERE organization_id = $1 AND id = $2 AND attempt_token = $3 AND status = 'sending' FOR UPDATE",
      [d.organization_id, d.id, d.attempt_token],
    );
    if (!mine.length) return;
    await q.query(
      `INSERT INTO webhook_attempts (organization_id, delivery_id, status_code, success, error, response_ms, response_start)
       VALUES ($1,$2,$3,$4,$5,$6,$7)`,
      [d.organization_id, d.id, r.status, r.ok, r.error, r.ms, r.start],
    );
    if (r.ok) {
      await q.query(
        "UPDATE webhook_deliveries SET status = 'delivered', attempt_token = NULL, lease_until = NULL " +
          'WHERE organization_id = $1 AND id = $2',
        [d.organization_id, d.id],
      );
      await q.query('UPDATE webhook_endpoints SET failure_run = 0 WHERE organization_id = $1 AND id = $2 AND failure_run <> 0', [
        d.organization_id,
        d.endpoint_id,
      ]);
      return;
    }
    const age = Date.now() - new Date(d.first_attempt_at).getTime();
    const delay = backoffMs(d.attempts, o.retryBaseMs, o.maxDelayMs);
    const giveUp = age + delay > o.giveUpAfterMs;
    await q.query(
      `UPDATE webhook_deliveries SET status = $3, attempt_token = NULL, lease_until = NULL,
              next_attempt_at = now() + ($4 || ' milliseconds')::interval WHERE organization_id = $1 AND id = $2`,
      [d.organization_id, d.id, giveUp ? 'failed' : 'pending', String(delay)],
    );
    const ep = (
      await q.query<{ failure_run: number; enabled: boolean; url: string }>(
        'UPDATE webhook_endpoints SET failure_run = failure_run + 1 WHERE organization_id = $1 AND id = $2 ' +
          'RETURNING failure_run, enabled, url',
        [d.organization_id, d.endpoint_id],
      )
    )[0];
    if (ep && ep.enabled && ep.failure_run >= o.pauseAfter) {
      await q.query(
        `UPDATE webhook_endpoints SET enabled = false, paused_at = now(), updated_at = now(),
                paused_reason = $3 WHERE organization_id = $1 AND id = $2`,
        [
          d.organization_id,
          d.endpoint_id,
          `paused automatically after ${ep.failure_run} failed attempts in a row (last: ${r.error ?? 'failed'})`,
        ],
      );
      await queueOrganizationNotice(q, ctx.config, d.organization_id, {
        subject: 'A webhook endpoint was paused',
        text:
          `Ark paused the webhook endpoint ${ep.url} after ${ep.failure_run} failed deliveries in a row ` +
          `(last: ${r.error ?? 'failed'}).\n\n` +
          'Nothing is sent to it while it is paused; changes are kept and sent, in order, ' +
          'when it is enabled again under Settings → Webhooks.',
        relatedType: 'webhook_endpoint',
        relatedId: d.endpoint_id,
      });
    }
  });
}

/** The background loop run by `npm start`: a pass every `pollMs`, more at once while work remains. */
export function startDeliveryWorker(ctx: AppContext, opts: DeliveryOptions & { pollMs?: number } = {}) {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      try {
        while (!stopped && (await deliverDue(ctx, opts)) > 0);
      } catch {
        // The next pass tries again; the database holds every delivery's state.
      }
    })();
    void running.finally(() => {
      if (!stopped) timer = setTimeout(tick, opts.pollMs ?? 2000);
    });
  };
  tick();
  ctx.onClose(async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  });
}
