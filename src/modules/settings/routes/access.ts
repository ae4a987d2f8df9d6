import type { FastifyRequest } from 'fastify';
import { who } from '../../../platform/context.ts';
import type * as service from '../service.ts';

/** What the settings routes ask of the calling key: admin on Settings. */
export const admin = { permission: { area: 'settings' as const, level: 'admin' as const } };

/** The escalation rule, stated once for every route it guards. */
export const COVER_RULE =
  "Nobody gives or takes away more power than their own role holds: the calling key's role must cover every grant involved, or " +
  'the answer is 403.';

/** The caller as the service knows it: organization, actor, the calling key's grants and member. */
export function caller(req: FastifyRequest): service.Caller {
  const { orgId, actor, principal } = who(req);
  return { orgId, actor, grants: principal.grants, memberId: principal.memberId };
}
