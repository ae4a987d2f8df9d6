import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { AccountStatusBody, PortalAccount } from '../schemas.ts';
import { peopleWrite } from './access.ts';

const TAGS = ['Portal'];

/** /api/people/:id/portal-account (and /status): a person's portal account. */
export function portalAccountRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id/portal-account',
    {
      config: { permission: { area: 'people', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: "A person's portal account",
        description: '404 when the person has no account (never invited).',
        params: IdParam,
        response: { 200: PortalAccount },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const a = await repo.accountOfPerson(ctx.db, orgId, req.params.id);
      if (!a) throw notFound('portal account');
      return service.accountView(a);
    },
  );
  app.put(
    '/api/people/:id/portal-account/status',
    {
      config: peopleWrite,
      schema: {
        tags: TAGS,
        summary: "Turn a person's portal account off or on",
        description: 'Off: no sign-in, every session ends at once. On: the account is as before (invited when no link was ever used).',
        params: IdParam,
        body: AccountStatusBody,
        response: { 200: PortalAccount },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.setAccountStatus(ctx.db, orgId, actor, req.params.id, req.body.enabled);
    },
  );
}
