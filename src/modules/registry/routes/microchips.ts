import type { App, AppContext } from '../../../platform/context.ts';
import { actorOf } from '../../../platform/context.ts';
import * as service from '../chips.service.ts';
import { LookupAnswer, LookupParams, LookupQuery } from '../schemas.ts';

const tags = ['Registry: microchips'];

/** /api/registry/microchips/:number: the cross-organization chip lookup (no key needed). */
export function microchipRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/registry/microchips/:number',
    {
      config: {
        public: 'optional',
        anyHost: true,
        addressLimit: { bucket: 'registry-lookup', perMinute: ctx.config.registryLookupRateLimitPerMinute },
        permission: { area: 'registry', level: 'read' },
      },
      schema: {
        tags,
        summary: 'Look up a microchip number across organizations',
        description: [
          'Which organizations have recorded this chip: each with its public name and contact (from its profile), the species,',
          'the status category (in_care, adopted, transferred, other; never the status name) and the date it last recorded a',
          "change to the animal. Never a person's name, address or contact, an internal id or a note. Works without a key, at",
          "any organization's address and at the bare base address, and with a key at its organization's address (an invalid",
          'key answers 401; a valid one needs read on Registry). The number is normalized as Ark stores chips (upper case,',
          'separators stripped): 422 when no letter or digit is left or more than 32 remain. `format`, `country` and',
          '`manufacturer` are read from the number itself (an unusual length is reported as `other`, not refused). The answer',
          'comes only from published copies (made when a chip is recorded or its animal changes), read as a database role',
          'that can read nothing else; an organization or animal that opted out is simply absent, so an unknown number and',
          'an opted-out one answer identically (empty results). Without a key: its own allowance per client address',
          '(ARK_REGISTRY_LOOKUP_RATE_LIMIT_PER_MINUTE, RateLimit-* headers, 429 beyond it); with a key: the key’s allowance.',
          'Every search is logged (time, a keyed hash of the client address, the number, answered or not); a keyed search is',
          "also written to the organization's activity (action `search`, entity `registry_microchip`).",
        ].join(' '),
        params: LookupParams,
        querystring: LookupQuery,
        response: { 200: LookupAnswer },
      },
    },
    async (req) => {
      const principal = req.principal;
      return service.lookup(ctx.db, req.params.number, req.query, {
        address: req.ip,
        secret: ctx.config.registrySecret,
        orgId: principal && req.org ? req.org.id : null,
        actor: principal ? actorOf(principal) : null,
      });
    },
  );
}
