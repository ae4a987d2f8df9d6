import type { App, AppContext } from '../../../platform/context.ts';
import { answerPlacementOffer } from '../../operations/public.ts';
import { type Form, idOf, type PortalPages } from '../pages.ts';

/** `/portal/placements/:id/accept` and `/decline`: a foster answers an offer to place an animal with them. */
export function portalPlacementRoutes(app: App, ctx: AppContext, { homeAct, hidden }: PortalPages) {
  for (const verb of ['accept', 'decline'] as const)
    app.post(
      `/portal/placements/:id/${verb}`,
      hidden,
      homeAct(async (req, c) => {
        const reason =
          String(((req.body ?? {}) as Form).reason ?? '')
            .trim()
            .slice(0, 500) || null;
        await answerPlacementOffer(ctx.db, c.org.id, c.personId, idOf(req), verb === 'accept', reason, c.actor, c.org.time_zone);
        return verb === 'accept' ? 'accepted' : 'declined';
      }),
    );
}
