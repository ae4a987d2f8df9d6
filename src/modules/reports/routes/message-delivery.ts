import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { DeliveryReport, RangeQuery } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/message-delivery. */
export function messageDeliveryRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/message-delivery',
    {
      config: needsFor('message-delivery'),
      schema: {
        tags,
        summary: 'Message delivery (sent, bounced, suppressed) by category',
        description:
          'Outbound messages queued in the range, by category: sent (sent or delivered), bounced, suppressed, failed, and still ' +
          'pending. Needs read on Communications too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(DeliveryReport, 'the delivery counts'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.messageDelivery(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.deliveryTable(r, org.name), `message-delivery-${r.from}-${r.to}`);
    },
  );
}
