import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import { Type, Strict } from '../../../platform/schema.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../wishlist.repository.ts';
import * as service from '../wishlist.service.ts';
import { IdParam, PublicWishList, WishItem, WishItemCreate, WishItemUpdate, WishList, WishListQuery } from '../schemas.ts';

const tags = ['Fundraising: wish list'];
const read = { permission: { area: 'fundraising' as const, level: 'read' as const } };
const write = { permission: { area: 'fundraising' as const, level: 'write' as const } };

export function wishListRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/fundraising/wish-list',
    {
      config: read,
      schema: {
        tags,
        summary: 'List wish-list items',
        description: 'High priority first, then by name. By default only items still needed (received < wanted).',
        querystring: WishListQuery,
        response: { 200: WishList },
      },
    },
    async (req) => {
      const { limit, offset, state, priority } = req.query;
      return pageB(
        (await repo.listWishes(ctx.db, who(req).orgId, { state: state ?? 'needed', priority }, limit, offset)).map(service.toWish),
        limit,
        offset,
      );
    },
  );
  app.get(
    '/api/fundraising/public/wish-list',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Public wish list for the website',
        description:
          'No key needed; the organization comes from the address (Host). Only items still needed, high priority first, with how ' +
          'many are still needed; fully received items drop off. Internal quantities and timestamps are not shown.',
        querystring: Type.Object(pageQueryB(200, 100)),
        response: { 200: PublicWishList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      const rows = await repo.listWishes(ctx.db, orgOf(req).id, { state: 'needed' }, limit, offset);
      return pageB(
        rows.map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          priority: r.priority as 'high',
          quantity_needed: r.quantity_wanted - r.quantity_received,
          url: r.url,
        })),
        limit,
        offset,
      );
    },
  );
  app.post(
    '/api/fundraising/wish-list',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a wish-list item',
        description: 'priority defaults to medium; url must be http(s).',
        body: WishItemCreate,
        response: { 201: WishItem },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.addWish(ctx.db, orgId, actor, req.body));
    },
  );
  app.get(
    '/api/fundraising/wish-list/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a wish-list item', params: IdParam, response: { 200: WishItem } },
    },
    async (req) => {
      const row = await repo.wishById(ctx.db, who(req).orgId, req.params.id);
      if (!row) throw notFound('wish-list item');
      return service.toWish(row);
    },
  );
  app.patch(
    '/api/fundraising/wish-list/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a wish-list item',
        description:
          'Only sent fields change. Raising quantity_wanted above what was received puts a fully received item back on the public list.',
        params: IdParam,
        body: WishItemUpdate,
        response: { 200: WishItem },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.changeWish(ctx.db, orgId, actor, req.params.id, req.body);
    },
  );
  app.post(
    '/api/fundraising/wish-list/:id/receive',
    {
      config: write,
      schema: {
        tags,
        summary: 'Mark items received',
        description:
          'Adds `quantity` (default 1) to quantity_received in one statement, so receipts recorded at the same time all count. ' +
          'Receiving more than wanted is recorded as given (donors bring extras); an item with received ≥ wanted is fully received and ' +
          'leaves the public list. Answers 200 with the item.',
        params: IdParam,
        body: Strict({ quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000, description: 'default 1' })) }),
        response: { 200: WishItem },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.receiveWish(ctx.db, orgId, actor, req.params.id, req.body.quantity ?? 1);
    },
  );
  app.delete(
    '/api/fundraising/wish-list/:id',
    {
      config: { permission: { area: 'fundraising', level: 'admin' } },
      schema: {
        tags,
        summary: 'Remove a wish-list item',
        description: 'Answers 204; needs admin on Fundraising. To take an item off the public list without deleting it, mark it received.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeWish(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
