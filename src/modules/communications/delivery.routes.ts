import type { App, AppContext } from '../../platform/context.ts';
import { orgOf, who } from '../../platform/context.ts';
import { Type, Nullable, StringEnum, Timestamp } from '../../platform/schema.ts';
import { PageFieldsB } from '../../platform/pagination.ts';
import {
  CATEGORIES,
  IdParam,
  PreferenceBody,
  PreferenceParams,
  SenderUpdateBody,
  SuppressionCreateBody,
  SuppressionListQuery,
} from './schemas.ts';
import * as service from './delivery.service.ts';

const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };
const admin = { permission: { area: 'communications' as const, level: 'admin' as const } };

const Suppression = Type.Object(
  {
    id: Type.String(),
    address: Type.String(),
    reason: Type.String(),
    source: Type.String({ description: 'api, bounce (hard bounce at send time) or unsubscribe' }),
    created_at: Timestamp(),
  },
  { $id: 'Suppression' },
);
const Preferences = Type.Object(
  {
    person_id: Type.String(),
    preferences: Type.Array(
      Type.Object({
        category: StringEnum(CATEGORIES),
        opted_out: Type.Boolean(),
        source: Nullable(Type.String()),
        updated_at: Nullable(Timestamp()),
        can_opt_out: Type.Boolean({ description: 'transactional mail cannot be opted out of' }),
      }),
    ),
  },
  { $id: 'ContactPreferences' },
);
const Sender = Type.Object(
  {
    from_name: Type.String({ description: 'display name on outgoing mail (default: the organization name)' }),
    from_address: Type.String({ description: 'default inbox at the sending domain' }),
    reply_to: Nullable(Type.String({ description: 'default: the default inbox address, so replies come back into Ark' })),
    sending_domain: Type.String({ description: "the organization's own domain, or its Ark mail host when none is set" }),
    custom_domain: Type.Boolean(),
    dkim_selector: Nullable(Type.String()),
    dns_records: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), value: Type.String(), purpose: Type.String() })),
    updated_at: Timestamp(),
  },
  { $id: 'SenderSettings' },
);

const PersonParam = Type.Object({ person_id: Type.String({ minLength: 1, maxLength: 64 }) });
const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });

export function deliveryRoutes(app: App, ctx: AppContext) {
  // RFC 8058: the one-click POST comes as a form (List-Unsubscribe=One-Click); its content does not matter.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
  app.addContentTypeParser('multipart/form-data', (_req, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
  });

  const tags = ['Communications: suppressions and preferences'];
  app.get(
    '/api/communications/suppressions',
    {
      config: read,
      schema: {
        tags,
        summary: "The organization's suppression list",
        description:
          'Newest first. Addresses are stored lower-cased. The platform-wide list (hard bounces everywhere, CLI) is not shown ' +
          'here; a message stopped by it says suppression_scope `platform`.',
        querystring: SuppressionListQuery,
        response: { 200: Type.Object({ results: Type.Array(Suppression), ...PageFieldsB }) },
      },
    },
    async (req) => service.listSuppressions(ctx.db, who(req).orgId, req.query),
  );
  app.post(
    '/api/communications/suppressions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Suppress an address',
        description:
          'Nothing is sent to it again by this organization (logged `suppressed`). Adding an address already listed answers 200 ' +
          'with the existing entry; a new one 201.',
        body: SuppressionCreateBody,
        response: { 200: Suppression, 201: Suppression },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const r = await service.suppress(ctx.db, orgId, actor, req.body);
      return reply.code(r.created ? 201 : 200).send(r.row);
    },
  );
  app.delete(
    '/api/communications/suppressions/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove an address from the suppression list',
        description: 'Needs admin: mail may reach the address again. Platform-wide entries are removed only from the CLI.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeSuppression(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/communications/people/:person_id/preferences',
    {
      config: read,
      schema: {
        tags,
        summary: "A person's contact preferences",
        description: 'One entry per category; a category never set is opted in.',
        params: PersonParam,
        response: { 200: Preferences },
      },
    },
    async (req) => service.preferencesOf(ctx.db, who(req).orgId, req.params.person_id),
  );
  app.put(
    '/api/communications/people/:person_id/preferences/:category',
    {
      config: write,
      schema: {
        tags,
        summary: 'Opt a person out of (or back into) a category',
        description:
          'An opted-out person is not sent that category (logged `suppressed`, reason opted_out). `transactional` cannot be ' +
          'opted out of (422).',
        params: PreferenceParams,
        body: PreferenceBody,
        response: { 200: Preferences },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.changePreference(ctx.db, orgId, actor, req.params, req.body);
    },
  );

  // One-click unsubscribe: public (the token is the credential), POST acts at once, idempotent.
  const Unsub = Type.Object(
    { unsubscribed: Type.Boolean(), category: Type.String(), address: Type.String() },
    { $id: 'UnsubscribeResult' },
  );
  app.post(
    '/api/communications/unsubscribe/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'One-click unsubscribe (RFC 8058)',
        description:
          'No key, no cookies: the token from the List-Unsubscribe header is enough. Acts at once and is idempotent. The person ' +
          "is opted out of the message's category; an address not on file is added to the suppression list (reason " +
          'unsubscribed). Accepts ' +
          'a form body (List-Unsubscribe=One-Click), JSON or none.',
        params: TokenParam,
        response: { 200: Unsub },
      },
    },
    async (req) => service.unsubscribe(ctx.db, orgOf(req).id, req.params.token),
  );
  app.get(
    '/api/communications/unsubscribe/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Unsubscribe confirmation page',
        description: 'A small HTML page with one button; opening it changes nothing (link scanners open links).',
        params: TokenParam,
        response: { 200: Type.String() },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const t = await service.unsubscribeLink(ctx.db, org.id, req.params.token);
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      const what = t.category.replace(/_/g, ' ');
      const html =
        `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body ` +
        `style="font-family:sans-serif;max-width:32em;margin:3em auto">
<h1>Unsubscribe</h1><p>${
          t.used_at
            ? `${esc(t.address)} is unsubscribed from ${esc(what)} email ` + `from ${esc(org.name)}.`
            : `Stop ${esc(what)} email from ${esc(org.name)} to ${esc(t.address)}?`
        }</p>
${
  t.used_at
    ? ''
    : `<form method="post" action="/api/communications/unsubscribe/${esc(t.token)}"><input type="hidden" ` +
      `name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
}
</body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );

  // Sender and deliverability
  const stags = ['Communications: sender'];
  app.get(
    '/api/communications/sender',
    {
      config: read,
      schema: {
        tags: stags,
        summary: 'Sender identity and the DNS records to publish',
        description:
          'A DKIM key (RSA 2048) is made at first use; outgoing mail is DKIM-signed with it. Publish the DKIM, SPF and DMARC ' +
          'records listed.',
        response: { 200: Sender },
      },
    },
    async (req) => service.readSender(ctx.db, ctx.config, who(req).org),
  );
  app.patch(
    '/api/communications/sender',
    {
      config: admin,
      schema: {
        tags: stags,
        summary: 'Change from-name, reply-to or sending domain',
        description:
          'A new sending domain gets a new DKIM key and selector (publish the new records before sending). `null` clears a value ' +
          '(back to the defaults). Mail is then From `{inbox}@{sending_domain}`.',
        body: SenderUpdateBody,
        response: { 200: Sender },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.changeSender(ctx.db, ctx.config, org, actor, req.body);
    },
  );
}
