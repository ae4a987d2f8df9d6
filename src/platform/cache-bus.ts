import { superviseListener } from './db/listen.ts';

const CHANNEL = 'ark_cache';

/** Tells every Ark process sharing the database to drop its cached keys, roles and organizations. */
export async function announceChange(q: { query: (t: string, p?: unknown[]) => Promise<unknown> }): Promise<void> {
  await q.query(`SELECT pg_notify('${CHANNEL}', 'changed')`);
}

/**
 * Listens for announcements on one supervised connection (src/platform/db/listen.ts): a lost connection is
 * re-established with a bounded back-off, and caches are cleared on each (re)connection, since an announcement
 * sent meanwhile was missed.
 */
export function listenForChanges(
  url: string,
  onChange: () => void,
  log?: { warn(msg: string): void; info(msg: string): void },
): { close(): Promise<void>; readonly listening: boolean } {
  return superviseListener({ url, name: 'cache', channels: [CHANNEL], onNotify: onChange, onListening: onChange, log });
}
