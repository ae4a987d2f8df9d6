import { Type, Strict, StringEnum, Nullable, Timestamp, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { CHANGE_EVENT_NAMES } from '../../platform/changes.ts';

export const EventType = StringEnum(CHANGE_EVENT_NAMES, {
  description:
    'One of the closed list of events: ' +
    CHANGE_EVENT_NAMES.join(', ') +
    '. A body carries the record id and the changed fields with their new values, never keys or password material.',
});

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'https only, outside loopback, private and link-local ranges (also checked on the resolved address at every send); ' +
    'http and local addresses only where ARK_WEBHOOKS_ALLOW_INSECURE is set (development, tests)',
});
const Events = Type.Array(EventType, { minItems: 1, maxItems: CHANGE_EVENT_NAMES.length, uniqueItems: true });
const Description = Type.String({ maxLength: 500, description: 'free text for the organization' });

export const Endpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean({ description: 'false: paused (by an admin, or automatically after a run of failures)' }),
  paused_reason: Nullable(Type.String()),
  paused_at: Nullable(Timestamp()),
  failure_run: Type.Integer({ description: 'failed attempts in a row; 0 after any success' }),
  pending_deliveries: Type.Integer(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type EndpointT = Static<typeof Endpoint>;
export const EndpointWithSecret = Type.Composite([
  Endpoint,
  Type.Object({ secret: Type.String({ description: 'whsec_… : shown only in this answer; store it now' }) }),
]);

export const EndpointCreate = Strict({
  url: Url,
  events: Events,
  description: Type.Optional(Description),
  enabled: Type.Optional(Type.Boolean({ default: true })),
});
export type EndpointCreateT = Static<typeof EndpointCreate>;
export const EndpointUpdate = Strict({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  enabled: Type.Optional(Type.Boolean({ description: 'true resumes a paused endpoint (its failure run starts again at 0)' })),
});
export type EndpointUpdateT = Static<typeof EndpointUpdate>;
export const EndpointList = Type.Object({ results: Type.Array(Endpoint), ...PageFieldsB });
export const EndpointListQuery = Strict(pageQueryB(100, 25));

export const Attempt = Type.Object({
  attempted_at: Timestamp(),
  status_code: Nullable(Type.Integer()),
  success: Type.Boolean(),
  error: Nullable(Type.String()),
  response_ms: Nullable(Type.Integer()),
  response_start: Nullable(Type.String({ description: 'the first 1,024 characters of the answer' })),
});
export const Delivery = Type.Object({
  id: Type.String({ description: 'the webhook-id header: the same on every attempt and redelivery' }),
  event: Type.String(),
  entity_id: Type.String(),
  status: StringEnum(['pending', 'sending', 'delivered', 'failed'] as const),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Timestamp()),
  created_at: Timestamp(),
  body: Type.String({ description: 'the JSON body as sent' }),
  attempt_log: Type.Array(Attempt),
});
export type DeliveryT = Static<typeof Delivery>;
export const DeliveryList = Type.Object({ results: Type.Array(Delivery), ...PageFieldsB });
export const DeliveryListQuery = Strict({
  ...pageQueryB(100, 25),
  status: Type.Optional(StringEnum(['pending', 'sending', 'delivered', 'failed'] as const)),
});
export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 64 }), delivery_id: Type.String({ maxLength: 200 }) });
