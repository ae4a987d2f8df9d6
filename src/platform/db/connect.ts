import { Db } from './db.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';
import type { Config } from '../../config.ts';

export interface Store {
  db: Db;
  embedded: boolean;
  close(): Promise<void>;
}

/** Opens the configured store: DATABASE_URL if set, else the embedded PostgreSQL. Migrates. */
export async function openStore(config: Config, opts: { migrate?: boolean; poolSize?: number } = {}): Promise<Store> {
  let url = config.databaseUrl;
  let stopEmbedded: () => Promise<void> = async () => undefined;
  if (!url) {
    const handle = await startEmbedded(config.dataDir);
    url = handle.url;
    stopEmbedded = () => handle.stop();
  }
  // Behind a transaction pooler (DATABASE_URL), what needs a session of its own uses DATABASE_DIRECT_URL.
  const db = new Db(url, opts.poolSize ?? config.dbPoolSize, {
    directUrl: config.databaseUrl ? config.databaseDirectUrl : undefined,
    namedStatements: config.dbNamedStatements,
  });
  db.useReplicas(config.replicaUrls, { stickyMs: config.replicaStickyMs, poolSize: opts.poolSize ?? config.dbPoolSize });
  if (opts.migrate !== false) await migrate(db);
  return {
    db,
    embedded: !config.databaseUrl,
    async close() {
      await db.close();
      await stopEmbedded();
    },
  };
}
