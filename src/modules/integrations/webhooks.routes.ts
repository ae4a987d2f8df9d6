import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { IdParam } from '../../platform/formats.ts';
import { pageB } from '../../platform/pagination.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, invalid, notFound, conflict } from '../../platform/errors.ts';
import { AREA_LABEL, allows, type Grants } from '../../platform/permissions.ts';
import { newId } from '../../platform/ids.ts';
import { CHANGE_EVENTS, CHANGE_EVENT_NAMES, type ChangeEvent } from '../../platform/changes.ts';
import * as repo from './webhooks.repository.ts';
import { newSecret, urlProblem } from './signing.ts';
import { wakeEndpoint } from './delivery.ts';
import {
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  Delivery,
  Endpoint,
  EndpointCreate,
  EndpointList,
  EndpointListQuery,
  EndpointUpdate,
  EndpointWithSecret,
} from './webhooks.schemas.ts';

const SIGNING =
  'Each delivery is a POST with a JSON body `{ "type": <event>, "timestamp": <ISO time of the change>, "data": { "object", "id", ' +
  '"fields", "cursor" } }` and the Standard Webhooks headers `webhook-id` (the same on every retry and redelivery: deduplicate on it), ' +
  '`webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` ' +
  'keyed with the base64-decoded part of the secret after `whsec_`). A 2xx answer within 15 seconds is success; anything else is ' +
  'retried with exponential back-off and jitter (30 s doubling, at most 8 h apart) for about three days, then marked failed. ' +
  "A record's events are sent in the change feed's order: a later event for the same record waits while an earlier one is pending. " +
  'After 50 failed attempts in a row the endpoint is paused and the organization is emailed; paused endpoints keep their backlog.';

/**
 * A delivery carries the record's fields (a person's name and roles, an animal's status): subscribing to an area's
 * events needs read on that area, as reading them in the change feed does (403 naming the area and the events).
 */
function checkEventGrants(grants: Grants, events: readonly ChangeEvent[]) {
  const missing = events.filter((e) => !allows(grants, CHANGE_EVENTS[e], 'read'));
  const first = missing[0];
  if (!first) return;
  const area = CHANGE_EVENTS[first];
  const named = missing.filter((e) => CHANGE_EVENTS[e] === area);
  throw new AppError(
    'FORBIDDEN',
    `Your role needs read permission on ${AREA_LABEL[area]} to subscribe to ${named.join(', ')}: a delivery carries those records' fields.`,
  );
}
const EVENT_GRANTS =
  ' Subscribing to an event needs read permission on its area (animals for animal, stay and adoption events; people for ' +
  'person events; fundraising for donations; communications for messages; shifts for bookings), as reading it in the change ' +
  'feed does: without it, 403 naming the area.';

/** Webhook endpoints (admin on Settings). */
export function webhookRoutes(app: App, ctx: AppContext) {
  const tags = ['Webhooks'];
  const perm = { permission: { area: 'settings' as const, level: 'admin' as const } };
  const checkUrl = (url: string) => {
    const problem = urlProblem(url, ctx.config.webhooksAllowInsecure);
    if (problem) throw invalid({ url: [problem] });
  };

  app.get(
    '/api/settings/webhooks',
    {
      config: perm,
      schema: {
        tags,
        summary: 'List webhook endpoints',
        description: `Oldest first. Events: ${CHANGE_EVENT_NAMES.join(', ')}. ${SIGNING}`,
        querystring: EndpointListQuery,
        response: { 200: EndpointList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { limit, offset } = req.query;
      return pageB(await repo.listEndpoints(ctx.db, orgId, limit, offset), limit, offset);
    },
  );

  app.post(
    '/api/settings/webhooks',
    {
      config: perm,
      schema: {
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'Answers 201 with the signing secret, shown only here (rotate it to get a new one). The endpoint receives the changes ' +
          `committed after it was added, including those of transactions that were running then.${EVENT_GRANTS} ${SIGNING}`,
        body: EndpointCreate,
        response: { 201: EndpointWithSecret },
      },
    },
    async (req, reply) => {
      const { orgId, actor, principal } = who(req);
      checkUrl(req.body.url);
      checkEventGrants(principal.grants, req.body.events);
      const id = newId('whk');
      const secret = newSecret();
      const row = await ctx.db.tx(async (q) => {
        await repo.insertEndpoint(q, orgId, {
          id,
          url: req.body.url,
          description: req.body.description ?? '',
          events: req.body.events,
          secret,
          enabled: req.body.enabled ?? true,
        });
        await audit(q, orgId, actor, 'create', 'webhook_endpoint', id, { url: req.body.url, events: req.body.events });
        return repo.endpointById(q, orgId, id);
      });
      if (!row) throw notFound('webhook endpoint');
      return reply.code(201).send({ ...row, secret });
    },
  );

  app.get(
    '/api/settings/webhooks/:id',
    { config: perm, schema: { tags, summary: 'One webhook endpoint (without its secret)', params: IdParam, response: { 200: Endpoint } } },
    async (req) => {
      const row = await repo.endpointById(ctx.db, who(req).orgId, req.params.id);
      if (!row) throw notFound('webhook endpoint');
      return row;
    },
  );

  app.patch(
    '/api/settings/webhooks/:id',
    {
      config: perm,
      schema: {
        tags,
        summary: 'Change, pause or resume a webhook endpoint',
        description:
          '`enabled: false` pauses it (nothing is sent; its changes are kept); `enabled: true` resumes it and sends the backlog in order.' +
          EVENT_GRANTS,
        params: IdParam,
        body: EndpointUpdate,
        response: { 200: Endpoint },
      },
    },
    async (req) => {
      const { orgId, actor, principal } = who(req);
      if (req.body.url !== undefined) checkUrl(req.body.url);
      if (req.body.events !== undefined) checkEventGrants(principal.grants, req.body.events);
      return ctx.db.tx(async (q) => {
        if (!(await repo.endpointById(q, orgId, req.params.id, true))) throw notFound('webhook endpoint');
        await repo.updateEndpoint(q, orgId, req.params.id, req.body);
        // Resumed: its delivery job sends the backlog (a paused endpoint's job stops queuing its next run).
        if (req.body.enabled === true) await wakeEndpoint(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'update', 'webhook_endpoint', req.params.id, req.body);
        const row = await repo.endpointById(q, orgId, req.params.id);
        if (!row) throw notFound('webhook endpoint');
        return row;
      });
    },
  );

  app.post(
    '/api/settings/webhooks/:id/rotate-secret',
    {
      config: perm,
      schema: {
        tags,
        summary: "Replace an endpoint's signing secret",
        description: 'The new secret is shown only in this answer and signs every attempt from now on, retries included.',
        params: IdParam,
        response: { 200: EndpointWithSecret },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const secret = newSecret();
      const row = await ctx.db.tx(async (q) => {
        if (!(await repo.endpointById(q, orgId, req.params.id, true))) throw notFound('webhook endpoint');
        await repo.setSecret(q, orgId, req.params.id, secret);
        await audit(q, orgId, actor, 'rotate', 'webhook_endpoint', req.params.id);
        return repo.endpointById(q, orgId, req.params.id);
      });
      if (!row) throw notFound('webhook endpoint');
      return { ...row, secret };
    },
  );

  app.delete(
    '/api/settings/webhooks/:id',
    {
      config: perm,
      schema: {
        tags,
        summary: 'Remove a webhook endpoint',
        description: 'Its pending deliveries and its log go with it.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await repo.deleteEndpoint(q, orgId, req.params.id))) throw notFound('webhook endpoint');
        await audit(q, orgId, actor, 'delete', 'webhook_endpoint', req.params.id);
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/settings/webhooks/:id/deliveries',
    {
      config: perm,
      schema: {
        tags,
        summary: "An endpoint's delivery log",
        description:
          'Newest first; each delivery with its body and every attempt (status code, time taken, first 1,024 characters answered).',
        params: IdParam,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      if (!(await repo.endpointById(ctx.db, orgId, req.params.id))) throw notFound('webhook endpoint');
      const { limit, offset, status } = req.query;
      return pageB(await repo.listDeliveries(ctx.db, orgId, req.params.id, { limit, offset, status }), limit, offset);
    },
  );

  app.post(
    '/api/settings/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: perm,
      schema: {
        tags,
        summary: 'Send a delivery again',
        description:
          'Queues the delivery again at once with the same webhook-id (a delivered one too), as a new series of attempts. ' +
          '409 while it is being sent. On a paused endpoint it waits until the endpoint is enabled.',
        params: DeliveryParams,
        response: { 202: Delivery },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const out = await ctx.db.tx(async (q) => {
        if (!(await repo.endpointById(q, orgId, req.params.id))) throw notFound('webhook endpoint');
        const r = await repo.redeliver(q, orgId, req.params.id, req.params.delivery_id);
        if (r === 'missing') throw notFound('delivery');
        if (r === 'sending') throw conflict('The delivery is being sent right now; try again in a moment.');
        await wakeEndpoint(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'redeliver', 'webhook_delivery', req.params.delivery_id);
        return (await repo.listDeliveries(q, orgId, req.params.id, { limit: 1, offset: 0, id: req.params.delivery_id }))[0];
      });
      if (!out) throw notFound('delivery');
      return reply.code(202).send(out);
    },
  );
}
