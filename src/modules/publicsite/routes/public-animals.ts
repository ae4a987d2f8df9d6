import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { PublicAnimalList, PublicListQuery } from '../schemas.ts';
import { publicPhotoPath, publicPhotos } from '../../media/public.ts';
import { sizeOf } from '../../animals/public.ts';
import { type SitePages, VERSION } from '../pages.ts';

/** `/api/public/animals`: the JSON list the widget reads (Family B shape), no key, any origin. */
export function publicAnimalRoutes(app: App, ctx: AppContext, { origin }: SitePages) {
  app.get(
    '/api/public/animals',
    {
      config: { public: true, publicCache: true },
      schema: {
        tags: ['Public website'],
        summary: 'Adoptable animals (public JSON)',
        description:
          'No key needed; the organization comes from the address (Host). Adoptable means: marked public, in care (an open ' +
          'stay) and no hold in force. Only public fields: the public name, never the internal name; no notes, no people. ' +
          'Filters as on the website: `size` is the band of the animal’s weight (small up to 25 lb, medium 26–60, large ' +
          '61–100, xlarge over 100; an animal with no weight matches no size), `location_id` one of `locations` (animals in ' +
          'one of its housing units too; animals with no location, e.g. in a foster home, match no location); newest first unless ' +
          '`sort=name`. `total` counts every match. Answers carry an ETag and ' +
          'Last-Modified (If-None-Match / If-Modified-Since answer 304), `Cache-Control: ' +
          service.CACHE_CONTROL +
          '` and `Access-Control-Allow-Origin: *` (the embeddable widget reads it from the rescue’s own website). ' +
          'Answers are kept in the server’s response cache until a change that may affect them commits (at most a minute), ' +
          'and compressed (Brotli or gzip) for a client that takes it; `total` and the choices come from counts kept as ' +
          'animals change, never from counting the animals.',
        querystring: PublicListQuery,
        response: { 200: PublicAnimalList, 304: Type.Null({ description: 'Not modified: If-None-Match named the current ETag' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const { limit, offset, species, sex, age, size, location_id, good_with, sort } = req.query;
      const f: repo.ListFilter = {
        species,
        sex,
        age,
        size,
        locationId: location_id,
        goodWith: [...new Set(good_with ?? [])].sort(),
        sort: sort ?? 'newest',
      };
      const [rows, total] = await Promise.all([
        repo.listAdoptable(ctx.db, org.id, f, limit, offset),
        repo.adoptableTotal(ctx.db, org.id, f),
      ]);
      const withPhoto = rows.filter((r) => r.photo_id).map((r) => r.id);
      const photos = new Map((await publicPhotos(ctx.db, org.id, withPhoto, 1)).map((p) => [p.animal_id, p]));
      const o = origin(req);
      const body = {
        results: rows.map((r) => {
          const p = photos.get(r.id);
          return {
            id: r.id,
            name: r.public_name,
            species: r.species,
            breed: r.breed,
            sex: r.sex as 'male',
            age: service.ageText(r.date_of_birth),
            age_group: service.ageGroup(service.ageDays(r.date_of_birth)),
            date_of_birth: r.date_of_birth,
            size: sizeOf(r.weight),
            url: `${o}${service.animalPath(r.id, r.public_name)}`,
            photo: p ? { url: `${o}${publicPhotoPath(r.id, p.id, 'small')}`, ...service.fit(p, 320) } : null,
            updated_at: r.updated_at,
          };
        }),
        limit,
        offset,
        has_more: offset + rows.length < total,
        total,
        ...(await repo.adoptableChoices(ctx.db, org.id)),
      };
      void reply.header('Access-Control-Allow-Origin', '*');
      if (service.notModified(req, reply, body, service.newestOf(...rows.map((r) => r.updated_at)), VERSION)) return reply;
      return body;
    },
  );
}
