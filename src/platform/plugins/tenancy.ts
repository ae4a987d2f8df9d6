import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { bearer } from '../auth.ts';
import { isTenantRoute, requestHost } from '../request.ts';
import type { Tenancy } from '../tenancy.ts';

/** Tenancy: the host names the organization (`{organization}.{base domain}`); none there is 404. */
export const tenancyPlugin = fp<{ tenancy: Tenancy }>(
  async (app, { tenancy }) => {
    app.decorateRequest('org', null);
    const resolve = async (req: FastifyRequest, reply: FastifyReply) => {
      const host = requestHost(req);
      const slug = tenancy.slugFromHost(host);
      const org = slug ? await tenancy.bySlug(slug) : null;
      if (!org && req.routeOptions.config?.anyHost && tenancy.isBaseHost(host)) {
        // The bare base address: served without an organization, so no key can be valid here.
        if (bearer(req.headers.authorization)) {
          await app.limits.byAddress(req, reply);
          throw new AppError('UNAUTHORIZED', "An API key works only at its organization's address.");
        }
        return;
      }
      if (!org) {
        // A key sent to no organization is no valid key: counted by address.
        if (bearer(req.headers.authorization)) await app.limits.byAddress(req, reply);
        throw new AppError('NOT_FOUND', 'No organization is served at this address.');
      }
      req.org = org;
    };
    // A callback hook: a request that is not an organization's /api request, or whose address names an organization
    // already remembered (nearly all), goes on without a promise.
    app.addHook('onRequest', (req, reply, done) => {
      if (!isTenantRoute(req)) return done();
      const known = tenancy.rememberedForRequest(req);
      if (known) {
        req.org = known;
        return done();
      }
      resolve(req, reply).then(() => done(), done);
    });
  },
  { name: 'ark-tenancy', dependencies: ['ark-rate-limit'] },
);
