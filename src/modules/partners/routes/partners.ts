import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, type TSchema } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as s from '../service.ts';
import {
  Affiliation,
  AffiliationCreate,
  AffiliationPatch,
  ListQuery,
  Location,
  LocationCreate,
  LocationPatch,
  Partner,
  PartnerCreate,
  PartnerPatch,
  PartnerQuery,
  SubParam,
  list,
} from '../schemas.ts';

const tags = ['Partners'];
const read = { permission: { area: 'partners' as const, level: 'read' as const } };
const write = { permission: { area: 'partners' as const, level: 'write' as const } };

/** Family B CRUD of partners, their locations and affiliations. */
export function partnerRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/partners',
    {
      config: read,
      schema: {
        tags,
        summary: 'List partners',
        description: 'By name. Deleted partners are not listed.',
        querystring: PartnerQuery,
        response: { 200: list(Partner, 'PartnerList') },
      },
    },
    async (req) => pageB(await s.listPartners(ctx.db, who(req).orgId, req.query), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/partners',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a partner',
        description:
          'Answers 201. An outside organization: another rescue, a shelter, a vet, a transport group, a supplier or other. ' +
          'Email and website are checked (422); a phone is stored in E.164. Names need not be unique.',
        body: PartnerCreate,
        response: { 201: Partner },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await s.createPartner(ctx.db, org, req.body, actor));
    },
  );
  app.get(
    '/api/partners/:id',
    { config: read, schema: { tags, summary: 'Get one partner', params: IdParam, response: { 200: Partner } } },
    async (req) => s.partnerRow(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/partners/:id',
    { config: write, schema: { tags, summary: 'Change a partner', params: IdParam, body: PartnerPatch, response: { 200: Partner } } },
    async (req) => {
      const { org, actor } = who(req);
      return s.updatePartner(ctx.db, org, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/partners/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a partner',
        description:
          'Answers 204. The partner answers 404 afterwards and can no longer be named on a stay or transport; records that ' +
          'already name it keep the id.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await s.deletePartner(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

  type Org = { id: string; country: string };
  type Body = Record<string, unknown>;
  const sub: {
    path: string;
    what: string;
    item: TSchema;
    listId: string;
    create: TSchema;
    patch: TSchema;
    createDesc: string;
    list: (orgId: string, id: string, l: number, o: number) => Promise<unknown[]>;
    add: (org: Org, id: string, b: Body, actor: string) => Promise<unknown>;
    update: (org: Org, id: string, sid: string, b: Body, actor: string) => Promise<unknown>;
    remove: (orgId: string, id: string, sid: string, actor: string) => Promise<void>;
  }[] = [
    {
      path: 'locations',
      what: 'location',
      item: Location,
      listId: 'PartnerLocationList',
      create: LocationCreate,
      patch: LocationPatch,
      createDesc:
        'Answers 201. An address (line1, city, country required), a phone (stored in E.164, the ' +
        "location's country assumed) and opening hours as free text.",
      list: (orgId: string, id: string, l: number, o: number) => s.listLocations(ctx.db, orgId, id, l, o),
      add: (org: { id: string; country: string }, id: string, b: Record<string, unknown>, actor: string) =>
        s.addLocation(ctx.db, org, id, b, actor),
      update: (org: { id: string; country: string }, id: string, sid: string, b: Record<string, unknown>, actor: string) =>
        s.updateLocation(ctx.db, org, id, sid, b, actor),
      remove: (orgId: string, id: string, sid: string, actor: string) => s.deleteLocation(ctx.db, orgId, id, sid, actor),
    },
    {
      path: 'affiliations',
      what: 'affiliation',
      item: Affiliation,
      listId: 'PartnerAffiliationList',
      create: AffiliationCreate,
      patch: AffiliationPatch,
      createDesc:
        'Answers 201. A person on file (422 when `person_id` names no live person) affiliated with the partner in a role, ' +
        'from/until (dates, inclusive; `valid_until` before `valid_from` is 422). When people are merged the affiliation ' +
        'moves to the survivor.',
      list: (orgId: string, id: string, l: number, o: number) => s.listAffiliations(ctx.db, orgId, id, l, o),
      add: (org: { id: string }, id: string, b: Record<string, unknown>, actor: string) => s.addAffiliation(ctx.db, org.id, id, b, actor),
      update: (org: { id: string }, id: string, sid: string, b: Record<string, unknown>, actor: string) =>
        s.updateAffiliation(ctx.db, org.id, id, sid, b, actor),
      remove: (orgId: string, id: string, sid: string, actor: string) => s.deleteAffiliation(ctx.db, orgId, id, sid, actor),
    },
  ];
  for (const x of sub) {
    app.get(
      `/api/partners/:id/${x.path}`,
      {
        config: read,
        schema: {
          tags,
          summary: `List a partner's ${x.path}`,
          params: IdParam,
          querystring: ListQuery,
          response: { 200: list(x.item, x.listId) },
        },
      },
      async (req) => {
        const q = req.query;
        return pageB(await x.list(who(req).orgId, req.params.id, q.limit, q.offset), q.limit, q.offset);
      },
    );
    app.post(
      `/api/partners/:id/${x.path}`,
      {
        config: write,
        schema: { tags, summary: `Add a ${x.what}`, description: x.createDesc, params: IdParam, body: x.create, response: { 201: x.item } },
      },
      async (req, reply) => {
        const { org, actor } = who(req);
        return reply.code(201).send(await x.add(org, req.params.id, req.body as Record<string, unknown>, actor));
      },
    );
    app.patch(
      `/api/partners/:id/${x.path}/:sub_id`,
      {
        config: write,
        schema: {
          tags,
          summary: `Change a ${x.what}`,
          description: 'Same rules as adding.',
          params: SubParam(`the ${x.what}`),
          body: x.patch,
          response: { 200: x.item },
        },
      },
      async (req) => {
        const { org, actor } = who(req);
        const p = req.params;
        return x.update(org, p.id, p.sub_id, req.body as Record<string, unknown>, actor);
      },
    );
    app.delete(
      `/api/partners/:id/${x.path}/:sub_id`,
      {
        config: write,
        schema: {
          tags,
          summary: `Remove a ${x.what}`,
          description: 'Answers 204.',
          params: SubParam(`the ${x.what}`),
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        const { orgId, actor } = who(req);
        const p = req.params;
        await x.remove(orgId, p.id, p.sub_id, actor);
        return reply.code(204).send(null);
      },
    );
  }
}
