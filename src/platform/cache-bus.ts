import pg from 'pg';

const CHANNEL = 'ark_cache';

/** Tells every Ark process sharing the database to drop its cached keys, roles and organizations. */
export async function announceChange(q: { query: (t: string, p?: unknown[]) => Promise<unknown> }): Promise<void> {
  await q.query(`SELECT pg_notify('${CHANNEL}', 'changed')`);
}

/** Listens for announcements; reconnects if the connection drops. */
export function listenForChanges(url: string, onChange: () => void): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    c.on('end', () => {
      if (!closed) {
        onChange();
        timer = setTimeout(() => void connect(), 1000);
      }
    });
    c.on('notification', () => onChange());
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      client = c;
    } catch {
      timer = setTimeout(() => void connect(), 1000);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
