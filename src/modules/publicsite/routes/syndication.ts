import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as targets from '../syndication.repository.ts';
import { runTarget } from '../syndication.ts';
import * as service from '../settings.service.ts';
import {
  SyndicationCreate,
  SyndicationPatch,
  SyndicationQuery,
  SyndicationRun,
  SyndicationTarget,
  SyndicationTargetList,
} from '../schemas.ts';
import { admin, read } from './access.ts';

const present = (t: targets.TargetRow) => {
  const { password, ...rest } = t;
  return { ...rest, password_set: password.length > 0 };
};

/** /api/settings/syndication: the syndication targets the adoptable animals are exported to, and a run on demand. */
export function syndicationRoutes(app: App, ctx: AppContext) {
  const tags = ['Settings: public website'];

  const base = '/api/settings/syndication';
  const targetDesc =
    'A syndication target: where the adoptable animals are uploaded, in which layout (`petfinder`: one CSV with a header named ' +
    '`{username}.csv`; `adoptapet`: a headerless `pets.csv` with its column map `import.cfg`), photos by URL (the public ' +
    'medium-size photo addresses). Upload by FTP, explicit FTPS with `secure`. The password is stored and never shown. ' +
    'Enabled targets are uploaded once a day at 05:00 UTC (a job on the job queue, one per target and day); ' +
    'the last run (status, error, counts of animals and photos) shows here and ' +
    'in the activity log.';

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        summary: 'Syndication targets',
        description: targetDesc,
        querystring: SyndicationQuery,
        response: { 200: SyndicationTargetList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB((await targets.listTargets(ctx.db, who(req).orgId, limit, offset)).map(present), limit, offset);
    },
  );
  app.get(
    `${base}/:id`,
    {
      config: read,
      schema: { tags, summary: 'A syndication target', description: targetDesc, params: IdParam, response: { 200: SyndicationTarget } },
    },
    async (req) => {
      const t = await targets.getTarget(ctx.db, who(req).orgId, req.params.id);
      if (!t) throw notFound('syndication target');
      return present(t);
    },
  );
  app.post(
    base,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Add a syndication target',
        description:
          `${targetDesc} Port 21 (22 for sftp) and folder / unless given (Petfinder expects /import). ` +
          '`secure` (FTPS) applies to ftp only: with sftp it answers 422.',
        body: SyndicationCreate,
        response: { 201: SyndicationTarget },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(present(await service.createTarget(ctx.db, orgId, actor, req.body)));
    },
  );
  app.patch(
    `${base}/:id`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a syndication target',
        params: IdParam,
        body: SyndicationPatch,
        response: { 200: SyndicationTarget },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return present(await service.changeTarget(ctx.db, orgId, actor, req.params.id, req.body));
    },
  );
  app.delete(
    `${base}/:id`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove a syndication target',
        description: 'Nothing is removed from the listing site.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeTarget(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    `${base}/:id/run`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Upload to a syndication target now',
        description:
          'Builds the file from the adoptable animals now and uploads it; answers when done with the result (an FTP failure is ' +
          'a 200 with status `failed` and the error, kept on the target). A run already in progress for this target, from ' +
          'any process, answers 409: a target is never uploaded twice at once.',
        params: IdParam,
        response: { 200: SyndicationRun, 409: { $ref: 'ErrorB#', description: 'A run of this target is in progress' } },
      },
    },
    async (req) => {
      const { org, orgId, actor } = who(req);
      return runTarget(ctx.db, ctx.config, orgId, org.slug, req.params.id, actor);
    },
  );
}
