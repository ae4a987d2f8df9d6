import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB } from '../../../platform/pagination.ts';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../../platform/errors.ts';
import { CHANGE_EVENT_NAMES } from '../../../platform/changes.ts';
import * as repo from '../webhooks.repository.ts';
import * as service from '../webhooks.service.ts';
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
} from '../webhooks.schemas.ts';

const SIGNING =
  'Each delivery is a POST with a JSON body `{ "type": <event>, "timestamp": <ISO time of the change>, "data": { "object", "id", ' +
  '"fields", "cursor" } }` and the Standard Webhooks headers `webhook-id` (the same on every retry and redelivery: deduplicate on it), ' +
  '`webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` ' +
  'keyed with the base64-decoded part of the secret after `whsec_`). A 2xx answer within 15 seconds is success; anything else is ' +
  'retried with exponential back-off and jitter (30 s doubling, at most 8 h apart) for about three days, then marked failed. ' +
  "A record's events are sent in the change feed's order: a later event for the same record waits while an earlier one is pending. " +
  'After 50 failed attempts in a row the endpoint is paused and the organization is emailed; paused endpoints keep their backlog.';

const EVENT_GRANTS =
  ' Subscribing to an event needs read permission on its area (animals for animal, stay and adoption events; people for ' +
  'person events; fundraising for donations; communications for messages; shifts for bookings), as reading it in the change ' +
  'feed does: without it, 403 naming the area.';

/** Webhook endpoints (admin on Settings). */
export function webhookRoutes(app: App, ctx: AppContext) {
  const tags = ['Webhooks'];
  const perm = { permission: { area: 'settings' as const, level: 'admin' as const } };
  const caller = (req: FastifyRequest) => {
    const { orgId, actor, principal } = who(req);
    return { orgId, actor, grants: principal.grants };
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
    async (req, reply) =>
      reply.code(201).send(await service.createEndpoint(ctx.db, caller(req), req.body, ctx.config.webhooksAllowInsecure)),
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
    async (req) => service.updateEndpoint(ctx.db, caller(req), req.params.id, req.body, ctx.config.webhooksAllowInsecure),
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
    async (req) => service.rotateSecret(ctx.db, caller(req), req.params.id),
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
      await service.deleteEndpoint(ctx.db, caller(req), req.params.id);
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
    async (req, reply) => reply.code(202).send(await service.redeliver(ctx.db, caller(req), req.params.id, req.params.delivery_id)),
  );
}
