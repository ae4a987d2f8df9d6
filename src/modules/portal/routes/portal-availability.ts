import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { setFosterAvailability } from '../../operations/public.ts';
import type { Form, PortalPages } from '../pages.ts';

/** `/portal/availability`: a foster's home pauses or takes animals again, how many and which species. */
export function portalAvailabilityRoutes(app: App, ctx: AppContext, { homeAct, hidden }: PortalPages) {
  app.post(
    '/portal/availability',
    hidden,
    homeAct(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const capacity = Number(b.capacity);
      if (!Number.isInteger(capacity) || capacity < 0 || capacity > 50)
        throw new AppError(
          'VALIDATION_ERROR',
          'How many animals at once must be a whole number from 0 to 50.',
          { capacity: ['is not valid'] },
          422,
        );
      const species = String(b.species ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(0, 10);
      const done = await setFosterAvailability(
        ctx.db,
        c.org.id,
        c.personId,
        { status: b.status === 'paused' ? 'paused' : 'active', capacity, species_preferences: species },
        c.actor,
        c.org.time_zone,
      );
      if (!done) throw new AppError('NOT_FOUND', 'You have no foster home with us.');
      return 'availability';
    }),
  );
}
