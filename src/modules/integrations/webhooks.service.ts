import type { Db } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, conflict, invalid, notFound } from '../../platform/errors.ts';
import { AREA_LABEL, allows, type Grants } from '../../platform/permissions.ts';
import { newId } from '../../platform/ids.ts';
import { CHANGE_EVENTS, type ChangeEvent } from '../../platform/changes.ts';
import * as repo from './webhooks.repository.ts';
import { newSecret, urlProblem } from './signing.ts';
import { wakeEndpoint } from './delivery.ts';
import type { EndpointCreateT, EndpointUpdateT } from './webhooks.schemas.ts';

/** Who asks: the organization, the actor the audit rows name, and the grants of the calling key. */
export interface Caller {
  orgId: string;
  actor: string;
  grants: Grants;
}

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

function checkUrl(url: string, allowInsecure: boolean) {
  const problem = urlProblem(url, allowInsecure);
  if (problem) throw invalid({ url: [problem] });
}

/** Adds an endpoint (audited) and answers it with its new secret, shown only then. */
export async function createEndpoint(db: Db, c: Caller, body: EndpointCreateT, allowInsecure: boolean) {
  checkUrl(body.url, allowInsecure);
  checkEventGrants(c.grants, body.events);
  const id = newId('whk');
  const secret = newSecret();
  const row = await db.tx(async (q) => {
    await repo.insertEndpoint(q, c.orgId, {
      id,
      url: body.url,
      description: body.description ?? '',
      events: body.events,
      secret,
      enabled: body.enabled ?? true,
    });
    await audit(q, c.orgId, c.actor, 'create', 'webhook_endpoint', id, { url: body.url, events: body.events });
    return repo.endpointById(q, c.orgId, id);
  });
  if (!row) throw notFound('webhook endpoint');
  return { ...row, secret };
}

/** Changes, pauses or resumes an endpoint (audited); a resumed one has its delivery job queued for the backlog. */
export async function updateEndpoint(db: Db, c: Caller, id: string, body: EndpointUpdateT, allowInsecure: boolean) {
  if (body.url !== undefined) checkUrl(body.url, allowInsecure);
  if (body.events !== undefined) checkEventGrants(c.grants, body.events);
  return db.tx(async (q) => {
    if (!(await repo.endpointById(q, c.orgId, id, true))) throw notFound('webhook endpoint');
    await repo.updateEndpoint(q, c.orgId, id, body);
    // Resumed: its delivery job sends the backlog (a paused endpoint's job stops queuing its next run).
    if (body.enabled === true) await wakeEndpoint(q, c.orgId, id);
    await audit(q, c.orgId, c.actor, 'update', 'webhook_endpoint', id, body);
    const row = await repo.endpointById(q, c.orgId, id);
    if (!row) throw notFound('webhook endpoint');
    return row;
  });
}

/** Replaces the endpoint's signing secret (audited) and answers the endpoint with it, shown only then. */
export async function rotateSecret(db: Db, c: Caller, id: string) {
  const secret = newSecret();
  const row = await db.tx(async (q) => {
    if (!(await repo.endpointById(q, c.orgId, id, true))) throw notFound('webhook endpoint');
    await repo.setSecret(q, c.orgId, id, secret);
    await audit(q, c.orgId, c.actor, 'rotate', 'webhook_endpoint', id);
    return repo.endpointById(q, c.orgId, id);
  });
  if (!row) throw notFound('webhook endpoint');
  return { ...row, secret };
}

/** Removes an endpoint with its deliveries and log (audited). */
export async function deleteEndpoint(db: Db, c: Caller, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteEndpoint(q, c.orgId, id))) throw notFound('webhook endpoint');
    await audit(q, c.orgId, c.actor, 'delete', 'webhook_endpoint', id);
  });
}

/** Queues a delivery again at once, same webhook-id (audited); 409 while it is being sent. Answers the delivery. */
export async function redeliver(db: Db, c: Caller, endpointId: string, deliveryId: string) {
  const out = await db.tx(async (q) => {
    if (!(await repo.endpointById(q, c.orgId, endpointId))) throw notFound('webhook endpoint');
    const r = await repo.redeliver(q, c.orgId, endpointId, deliveryId);
    if (r === 'missing') throw notFound('delivery');
    if (r === 'sending') throw conflict('The delivery is being sent right now; try again in a moment.');
    await wakeEndpoint(q, c.orgId, endpointId);
    await audit(q, c.orgId, c.actor, 'redeliver', 'webhook_delivery', deliveryId);
    return (await repo.listDeliveries(q, c.orgId, endpointId, { limit: 1, offset: 0, id: deliveryId }))[0];
  });
  if (!out) throw notFound('delivery');
  return out;
}
