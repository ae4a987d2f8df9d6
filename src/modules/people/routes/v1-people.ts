import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { metaA } from '../../../platform/pagination.ts';
import { Person, PersonCreate, PersonList, PersonListQuery, PersonUpdate } from '../schemas.ts';
import * as service from '../service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const tags = ['People'];

export function peopleRoutesV1(app: App, ctx: AppContext) {
  app.get(
    '/api/v1/people',
    {
      config: { permission: { area: 'people', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List people',
        description:
          'Newest first; with `q`, most relevant first (whole-word matches before partial ones), then newest. `q` is a search ' +
          'box: every word must appear in the first name, last name, email or phone, ignoring case and accents; a word with ' +
          'three or more ' +
          "digits also matches the phone's digits however they were written. List items carry no address or notes; GET /people/{id} has " +
          'every field. `meta.total` is exact: with no filter or only `role` it is the sum of per-role-set tallies updated with every ' +
          'change in its own transaction; with `email` or `tag` it is counted over the rows that match. A `q` of one word ' +
          '(three or more unaccented characters) and no other filter sums the kept counts of the distinct names the word is part of and ' +
          'adds the people it matches through their email or phone alone, so its cost follows the names it matches, not the ' +
          'people who carry them; a person whose name holds the word is ranked by their name. Several words, or `q` with ' +
          'another filter, count the index entries of the matching people.' +
          REPLICA_READ,
        querystring: PersonListQuery,
        response: { 200: PersonList },
      },
    },
    async (req) => {
      const { rows, total } = await service.listPeople(req.db, who(req).orgId, req.query);
      return { data: rows.map(service.toPersonA), meta: metaA(total, req.query.page, req.query.perPage) };
    },
  );
  app.get(
    '/api/v1/people/:id',
    {
      config: { permission: { area: 'people', level: 'read' } },
      schema: { tags, summary: 'Get one person', params: IdParam, response: { 200: Person } },
    },
    async (req) => service.toPersonA(await service.getPerson(ctx.db, who(req).orgId, req.params.id)),
  );
  app.post(
    '/api/v1/people',
    {
      config: { permission: { area: 'people', level: 'write' } },
      schema: {
        tags,
        summary: 'Add a person',
        description: "One person can hold several roles. timeZone defaults to the organization's.",
        body: PersonCreate,
        response: { 201: Person },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(service.toPersonA(await service.createPerson(ctx.db, org, req.body, actor)));
    },
  );
  app.patch(
    '/api/v1/people/:id',
    {
      config: { permission: { area: 'people', level: 'write' } },
      schema: { tags, summary: 'Change a person', params: IdParam, body: PersonUpdate, response: { 200: Person } },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.toPersonA(await service.updatePerson(ctx.db, org, req.params.id, req.body, actor));
    },
  );
  app.delete(
    '/api/v1/people/:id',
    {
      config: { permission: { area: 'people', level: 'admin' } },
      schema: {
        tags,
        summary: 'Delete a person',
        description: 'Answers 204. The person answers 404 afterwards but is kept for the record, with their donations.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deletePerson(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
