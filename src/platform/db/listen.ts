/**
 * Supervised LISTEN connections: every process-wide listener (the cache bus, the job queue's wake-ups, the outbound
 * mail queue's wake-ups) is ONE loop per purpose that holds at most one connection at a time. When the connection
 * drops (PostgreSQL restarted, a network blip, the backend terminated) the loop closes it, waits a bounded exponential
 * back-off with jitter (0.25 s doubling to at most 2 s, back to 0.25 s after a connection that reached LISTEN) and
 * connects again. After each (re)connection `onListening` runs: notifications sent while the connection was away are
 * lost, so a listener treats it as "something may have happened" (clear caches, look for due work).
 *
 * Each connection names its purpose as `application_name` (`ark-listen:<name>`), so `pg_stat_activity` shows which
 * listeners a process holds.
 */
import pg from 'pg';

export interface ListenerOptions {
  url: string;
  /** What the listener is for, e.g. `cache`, `jobs`, `mail` (shown as application_name `ark-listen:<name>`). */
  name: string;
  channels: string[];
  onNotify: (channel: string, payload: string | undefined) => void;
  /** After each successful LISTEN (the first and every reconnection). */
  onListening?: () => void;
  /**
   * Run on the connection after LISTEN, before `onListening` (e.g. to take a session advisory lock that lives as long as
   * the connection); a failure counts as a failed connection and is retried.
   */
  setup?: (client: pg.Client) => Promise<void>;
  log?: { warn(msg: string): void; info(msg: string): void };
  /** First retry delay (default 250 ms), doubled per failure up to `maxDelayMs` (default 2000 ms). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface Listener {
  /** True while the LISTEN connection is up. */
  readonly listening: boolean;
  /** Connections opened so far (successful or not): a test's measure of the back-off. */
  readonly attempts: number;
  close(): Promise<void>;
}

export const LISTENER_APP_PREFIX = 'ark-listen:';

/** The delay before attempt n+1 after n consecutive failures: doubling, capped, ±20% jitter. */
export function listenBackoffMs(failures: number, minMs = 250, maxMs = 2000): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export function superviseListener(opts: ListenerOptions): Listener {
  const minMs = opts.minDelayMs ?? 250;
  const maxMs = opts.maxDelayMs ?? 2000;
  let closed = false;
  let listening = false;
  let attempts = 0;
  let current: pg.Client | null = null;
  let wake: (() => void) | null = null;
  let onClose: () => void = () => undefined;
  const closing = new Promise<void>((resolve) => (onClose = resolve));

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const loop = async () => {
    let failures = 0;
    let wasDown = false;
    while (!closed) {
      attempts++;
      const client = new pg.Client({
        connectionString: opts.url,
        connectionTimeoutMillis: 5000,
        keepAlive: true,
        application_name: `${LISTENER_APP_PREFIX}${opts.name}`,
      });
      current = client;
      // The only ending of this connection this loop waits for; 'error' and 'end' both settle it (once).
      const lost = new Promise<void>((resolve) => {
        client.on('error', () => resolve());
        client.on('end', () => resolve());
      });
      client.on('notification', (m) => opts.onNotify(m.channel, m.payload));
      try {
        await client.connect();
        for (const channel of opts.channels) await client.query(`LISTEN ${channel}`);
        await opts.setup?.(client);
        if (!closed) {
          listening = true;
          failures = 0;
          if (wasDown) opts.log?.info(`PostgreSQL listener '${opts.name}' is back`);
          wasDown = false;
          opts.onListening?.();
          await Promise.race([lost, closing]);
        }
      } catch {
        // refused, timed out, or dropped during LISTEN: retried below
      }
      listening = false;
      current = null;
      await client.end().catch(() => undefined);
      if (closed) break;
      if (!wasDown) opts.log?.warn(`PostgreSQL listener '${opts.name}' lost its connection; reconnecting`);
      wasDown = true;
      failures++;
      await sleep(listenBackoffMs(failures, minMs, maxMs));
    }
  };
  const done = loop();

  return {
    get listening() {
      return listening;
    },
    get attempts() {
      return attempts;
    },
    async close() {
      closed = true;
      onClose();
      wake?.();
      await current?.end().catch(() => undefined);
      await done;
    },
  };
}
