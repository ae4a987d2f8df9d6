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
const stopJobs = startJobWorker(ctx, { graceMs: config.shutdownGraceSeconds * 1000 });
ctx.onClose(stopJobs);
await app.listen({ port: config.port, host: config.host });
app.log.info(
  `Ark serves http://{organization}.${config.baseDomain}:${config.port} on ${store.embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL'}`,
);

/**
 * A graceful stop (SIGTERM from an orchestrator, SIGINT from a terminal): stop accepting connections, let the requests
 * in flight finish for up to ARK_SHUTDOWN_GRACE_SECONDS (then close what is left), stop the workers (a job still
 * running gives its claim back, so another process takes it at once), then close the database pools.
 */
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: stopping; in-flight requests have ${config.shutdownGraceSeconds} s to finish`);
  const grace = setTimeout(() => {
    app.log.warn('shutdown grace period over: closing the connections still open');
    app.server.closeAllConnections();
  }, config.shutdownGraceSeconds * 1000);
  try {
    // The job worker stops beside the HTTP drain (it has the same grace), not after it.
    await Promise.all([app.close(), stopJobs()]);
  } catch (err) {
    app.log.error({ err }, 'stopping');
  }
  clearTimeout(grace);
  redis?.disconnect();
  await store.close().catch(() => undefined);
  app.log.info('stopped');
  process.exit(0);
};
// The embedded store's package hooks these signals to exit at once; our stop closes it after draining.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const l of process.listeners(signal)) process.off(signal, l);
  process.on(signal, () => void stop(signal));
}
