import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as service from '../chips.service.ts';
import { AnimalIdParams, AnimalPublication, AnimalPublicationBody } from '../schemas.ts';

const tags = ['Registry: microchips'];

/** /api/registry/animals/:animal_id/publication: whether one animal's chip is published. */
export function publicationRoutes(app: App, ctx: AppContext) {
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
