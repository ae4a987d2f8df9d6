import type { App, AppContext } from '../../platform/context.ts';
import { actorOf, who } from '../../platform/context.ts';
import * as repo from './chips.repository.ts';
import * as service from './chips.service.ts';
import {
  AnimalIdParams,
  AnimalPublication,
  AnimalPublicationBody,
  LookupAnswer,
  LookupParams,
  LookupQuery,
  RegistrySettings,
  RegistrySettingsPatch,
} from './schemas.ts';

const tags = ['Registry: microchips'];

async function settingsOut(q: Parameters<typeof repo.settings>[0], orgId: string) {
  const s = await repo.settings(q, orgId);
  return { publish_chips: s.publish_chips, published_profile: s.profile, updated_at: s.updated_at };
}

export function chipRoutes(app: App, ctx: AppContext) {
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

  app.get(
    '/api/registry/settings',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: "The organization's registry settings",
        description: 'Whether the organization publishes its chips to the lookup, and the profile copy the lookup shows.',
        response: { 200: RegistrySettings },
      },
    },
    async (req) => settingsOut(ctx.db, who(req).orgId),
  );

  app.patch(
    '/api/registry/settings',
    {
      config: { permission: { area: 'registry', level: 'admin' } },
      schema: {
        tags,
        summary: "Change the organization's registry settings",
        description: [
          '`publish_chips: false` removes every entry of the organization from the lookup at once; `true` publishes every',
          'chipped live animal again (except those marked "do not publish this chip"). Any call, even with an empty body,',
          "also copies the organization's current profile (name, email, phone, website) into its entries; otherwise a",
          "profile change reaches the lookup with the organization's next animal change. Needs admin on Registry.",
        ].join(' '),
        body: RegistrySettingsPatch,
        response: { 200: RegistrySettings },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      await service.updateSettings(ctx.db, orgId, req.body.publish_chips, actor);
      // Animal writes decide from the cached settings whether there is anything to publish: clear them everywhere.
      await ctx.changed();
      return settingsOut(ctx.db, orgId);
    },
  );

  app.get(
    '/api/registry/animals/:animal_id/publication',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: "Whether an animal's chips are published",
        description: '404 when the id names no live animal of the organization.',
        params: AnimalIdParams,
        response: { 200: AnimalPublication },
      },
    },
    async (req) => service.animalPublication(ctx.db, who(req).orgId, req.params.animal_id),
  );

  app.put(
    '/api/registry/animals/:animal_id/publication',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Publish or withhold an animal\'s chips ("do not publish this chip")',
        description: [
          '`publish: false` removes the animal from the lookup at once and keeps it out after later changes; `true` publishes',
          'it again (when the organization publishes and the animal has a chip). 404 when the id names no live animal of',
          'the organization. Needs write on Registry.',
        ].join(' '),
        params: AnimalIdParams,
        body: AnimalPublicationBody,
        response: { 200: AnimalPublication },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.setAnimalPublication(ctx.db, orgId, req.params.animal_id, req.body.publish, actor);
    },
  );
}
