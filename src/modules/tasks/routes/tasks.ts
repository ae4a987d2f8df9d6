import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as S from '../schemas.ts';
import * as service from '../service.ts';
import * as repo from '../repository.ts';

const VISIBILITY =
  'A task linked to a record is visible only to a key that may read that record’s area (animal, adoption application, foster ' +
  'home, transport and location: Animals; person: People; partner: Partners; form submission: Forms; event: Events; campaign ' +
  'and donation: Fundraising; shift schedule: Shifts); to any other key it is left out of lists and answers 404.';

/** /api/tasks: tasks (templates are in templates.ts). */
export function taskRoutes(app: App, ctx: AppContext) {
  const tags = ['Tasks'];
  app.get(
    '/api/tasks',
    {
      config: { permission: { area: 'tasks', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List tasks',
        description: `By due date (tasks without one last), then oldest first. ${VISIBILITY}`,
        querystring: S.TaskListQuery,
        response: { 200: S.TaskList },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      return pageB(
        await repo.listTasks(req.db, orgId, req.query, service.visibleLinks(principal.grants)),
        req.query.limit,
        req.query.offset,
      );
    },
  );
  app.get(
    '/api/tasks/:id',
    {
      config: { permission: { area: 'tasks', level: 'read' } },
      schema: { tags, summary: 'Get one task', description: VISIBILITY, params: IdParam, response: { 200: S.Task } },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      return service.getTask(ctx.db, orgId, principal.grants, req.params.id);
    },
  );
  app.post(
    '/api/tasks',
    {
      config: { permission: { area: 'tasks', level: 'write' } },
      schema: {
        tags,
        summary: 'Create a task',
        description:
          'Assigned to a role (by name) or to a member (a free reference such as an email address: Ark keeps no member records ' +
          'yet), not both (422). `linked_type` and `linked_id` go together (422); an animal, person, event or form submission ' +
          'must exist, and the key must read the linked record’s area (422 otherwise); other kinds are stored as given. ' +
          `Priority defaults to normal. ${VISIBILITY}`,
        body: S.TaskCreate,
        response: { 201: S.Task },
      },
    },
    async (req, reply) => {
      const { orgId, principal, actor } = who(req);
      return reply.code(201).send(await service.createTask(ctx.db, orgId, principal.grants, actor, req.body));
    },
  );
  app.patch(
    '/api/tasks/:id',
    {
      config: { permission: { area: 'tasks', level: 'write' } },
      schema: {
        tags,
        summary: 'Change a task, mark it done or reopen it',
        description:
          'Only sent fields change. Sending an assignee role clears the member and the other way round. `done: true` sets ' +
          'done_at and done_by once (under a row lock: marking it done twice, even at the same moment, keeps the first); ' +
          '`done: false` clears both. The audit row carries before/after values.',
        params: IdParam,
        body: S.TaskPatch,
        response: { 200: S.Task },
      },
    },
    async (req) => {
      const { orgId, principal, actor } = who(req);
      return service.updateTask(ctx.db, orgId, principal.grants, actor, req.params.id, req.body);
    },
  );
  app.delete(
    '/api/tasks/:id',
    {
      config: { permission: { area: 'tasks', level: 'write' } },
      schema: { tags, summary: 'Delete a task', description: 'Answers 204.', params: IdParam, response: { 204: Type.Null() } },
    },
    async (req, reply) => {
      const { orgId, principal, actor } = who(req);
      await service.deleteTask(ctx.db, orgId, principal.grants, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
