import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/db.ts';

/**
 * Reads that tolerate lag: a `readReplica` GET reads through req.db from a replica; a client that
 * writes keeps its reads on the primary for a few seconds (platform/db/replicas.ts). Registered
 * after auth: the client is its key when it has one, else its address.
 */
export const replicasPlugin = fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorateRequest('db', null as unknown as Db);
    const stickyKey = (req: FastifyRequest) => (req.principal ? `k:${req.principal.keyId}` : `ip:${req.ip}`);
    const safe = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
    app.addHook('onRequest', (req, _reply, done) => {
      req.db = db;
      if (db.hasReplicas) {
        if (!safe(req.method)) db.wrote(stickyKey(req));
        else if (req.routeOptions.config?.readReplica) req.db = db.reader(stickyKey(req));
      }
      done();
    });
    if (db.hasReplicas) {
      app.addHook('onResponse', async (req) => {
        if (!safe(req.method)) db.wrote(stickyKey(req)); // the window runs from the end of the write
      });
    }
  },
  { name: 'ark-replicas', dependencies: ['ark-auth'] },
);

/** The sentence a `readReplica` route adds to its OpenAPI description. */
export const REPLICA_READ =
  ' With read replicas configured, this read may be served by a replica: changes made by other clients in the last few seconds' +
  ' may not show yet (a client sees its own changes at once).';
