import type { Queryable } from './db/db.ts';
import { kx, sql } from './db/kysely.ts';
import { superviseListener } from './db/listen.ts';

const CHANNEL = 'ark_cache';
/**
 * An organization's public pages changed (the payload is its id). Sent by database triggers in the transaction that
 * makes the change, so every process hears it exactly when that transaction commits (migrations/1520).
 */
export const PUBLIC_CHANNEL = 'ark_public';

const publicListeners = new Set<(orgId: string | null) => void>();
/** Runs `fn(orgId)` when an organization's public pages change, here or in another process; `null`: any may have. */
export function onPublicChange(fn: (orgId: string | null) => void): () => void {
  publicListeners.add(fn);
  return () => publicListeners.delete(fn);
}
/** Tells this process's listeners that an organization's public pages changed (or may have: `null`). */
export function publicChanged(orgId: string | null): void {
  for (const fn of publicListeners) fn(orgId);
}

/** The announcement's payload when no organization is named. */
const ANY_ORG = 'changed';

/**
 * Tells every Ark process sharing the database to drop its cached keys, roles and organizations; with the organization
 * whose records changed (the payload), what is kept per organization forgets only that one's.
 */
export async function announceChange(q: Queryable, orgId?: string): Promise<void> {
  await sql`SELECT pg_notify(${CHANNEL}, ${orgId ?? ANY_ORG})`.execute(kx(q));
}

/**
 * Listens for announcements on one supervised connection (src/platform/db/listen.ts): a lost connection is
 * re-established with a bounded back-off, and caches are cleared on each (re)connection, since an announcement
 * sent meanwhile was missed.
 */
export function listenForChanges(
  url: string,
  onChange: (orgId: string | null) => void,
  log?: { warn(msg: string): void; info(msg: string): void },
): { close(): Promise<void>; readonly listening: boolean } {
  return superviseListener({
    url,
    name: 'cache',
    channels: [CHANNEL, PUBLIC_CHANNEL],
    onNotify: (channel, payload) =>
      channel === PUBLIC_CHANNEL ? publicChanged(payload || null) : onChange(payload && payload !== ANY_ORG ? payload : null),
    // Announcements sent while the connection was away were missed: everything may have changed.
    onListening: () => {
      onChange(null);
      publicChanged(null);
    },
    log,
  });
}
