import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as S from '../schemas.ts';
import * as repo from '../volunteers.repository.ts';
import * as service from '../volunteers.service.ts';

/** /api/shifts/policies: booking policies. */
export function policyRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const admin = { permission: { area: 'shifts' as const, level: 'admin' as const } };
  app.get(
    '/api/shifts/policies',
    {
      config: read,
      schema: {
        tags: ['Shift policies'],
        summary: 'Booking policies',
        description: 'Defaults until changed: no minimum notice, no weekly limit, no cancellation cut-off (`updated_at` null).',
        response: { 200: S.Policies },
      },
    },
    async (req) => repo.policies(ctx.db, who(req).orgId),
  );
  app.patch(
    '/api/shifts/policies',
    {
      config: admin,
      schema: {
        tags: ['Shift policies'],
        summary: 'Change booking policies',
        description: 'Only sent fields change; apply to bookings and cancellations made from then on.',
        body: S.PoliciesUpdate,
        response: { 200: S.Policies },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updatePolicies(ctx.db, orgId, actor, req.body);
    },
  );
}
