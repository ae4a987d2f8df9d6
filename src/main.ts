import { loadConfig } from './config.ts';
import { openStore } from './platform/db/connect.ts';
import { buildApp } from './app.ts';
import { connectRedis } from './platform/rate-limit.ts';
import { modules } from './modules/index.ts';
import { startJobWorker } from './platform/jobs.ts';

const config = loadConfig();
const store = await openStore(config);
const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
const { app, ctx } = await buildApp({ config, db: store.db, redis, logger: true, listen: true });
for (const mod of modules) await mod.start?.(ctx);
ctx.onClose(startJobWorker(ctx));
await app.listen({ port: config.port, host: config.host });
app.log.info(
  `Ark serves http://{organization}.${config.baseDomain}:${config.port} on ${store.embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL'}`,
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: stopping`);
  await app.close();
  redis?.disconnect();
  await store.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
