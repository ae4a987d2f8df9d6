import type { App, AppContext } from '../../platform/context.ts';
import { orgOf, who } from '../../platform/context.ts';
import { Type, Nullable, Strict, StringEnum, Timestamp } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isEmail } from '../../platform/validators.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { CATEGORIES, IdParam } from './schemas.ts';
import * as sup from './suppress.ts';
import { dnsRecords, ensureDkim, sendingDomain, updateSender, type SenderRow } from './sender.ts';
import { parseProviders } from './worker.ts';
import { ensureDefaultInbox } from './inboxes.repository.ts';
import { mailHost } from './inboxes.service.ts';

const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };
const admin = { permission: { area: 'communications' as const, level: 'admin' as const } };

const Suppression = Type.Object({ id: Type.String(), address: Type.String(), reason: Type.String(), source: Type.String({ description: 'api, bounce (hard bounce at send time) or unsubscribe' }), created_at: Timestamp() }, { $id: 'Suppression' });
const Preferences = Type.Object({
  person_id: Type.String(),
  preferences: Type.Array(Type.Object({
    category: StringEnum(CATEGORIES), opted_out: Type.Boolean(), source: Nullable(Type.String()), updated_at: Nullable(Timestamp()),
    can_opt_out: Type.Boolean({ description: 'transactional mail cannot be opted out of' }),
  })),
}, { $id: 'ContactPreferences' });
const Sender = Type.Object({
  from_name: Type.String({ description: 'display name on outgoing mail (default: the organization name)' }),
  from_address: Type.String({ description: 'default inbox at the sending domain' }),
  reply_to: Nullable(Type.String({ description: 'default: the default inbox address, so replies come back into Ark' })),
  sending_domain: Type.String({ description: "the organization's own domain, or its Ark mail host when none is set" }),
  custom_domain: Type.Boolean(),
  dkim_selector: Nullable(Type.String()),
  dns_records: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), value: Type.String(), purpose: Type.String() })),
  updated_at: Timestamp(),
}, { $id: 'SenderSettings' });

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
  app.get('/api/communications/suppressions', {
    config: read,
    schema: {
      tags, summary: "The organization's suppression list", description: 'Newest first. Addresses are stored lower-cased. The platform-wide list (hard bounces everywhere, CLI) is not shown here; a message stopped by it says suppression_scope `platform`.',
      querystring: Strict({ address: Type.Optional(Type.String({ maxLength: 254 })), ...pageQueryB(100, 25) }),
      response: { 200: Type.Object({ results: Type.Array(Suppression), ...PageFieldsB }) },
    },
  }, async (req) => {
    const { limit, offset } = req.query;
    return pageB(await sup.listSuppressions(ctx.db, who(req).orgId, req.query), limit, offset);
  });
  app.post('/api/communications/suppressions', {
    config: write,
    schema: {
      tags, summary: 'Suppress an address', description: 'Nothing is sent to it again by this organization (logged `suppressed`). Adding an address already listed answers 200 with the existing entry; a new one 201.',
      body: Strict({ address: Type.String({ minLength: 3, maxLength: 254 }), reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default: manual' })) }),
      response: { 200: Suppression, 201: Suppression },
    },
  }, async (req, reply) => {
    const { orgId, actor } = who(req);
    if (!isEmail(req.body.address)) throw invalid({ address: ['must be an email address'] });
    const r = await ctx.db.tx((q) => sup.addSuppression(q, orgId, actor, req.body.address, req.body.reason ?? 'manual', 'api'));
    return reply.code(r.created ? 201 : 200).send(r.row);
  });
  app.delete('/api/communications/suppressions/:id', {
    config: admin,
    schema: { tags, summary: 'Remove an address from the suppression list', description: 'Needs admin: mail may reach the address again. Platform-wide entries are removed only from the CLI.', params: IdParam, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    const { orgId, actor } = who(req);
    await ctx.db.tx((q) => sup.removeSuppression(q, orgId, actor, req.params.id));
    return reply.code(204).send(null);
  });

  app.get('/api/communications/people/:person_id/preferences', {
    config: read,
    schema: { tags, summary: "A person's contact preferences", description: 'One entry per category; a category never set is opted in.', params: PersonParam, response: { 200: Preferences } },
  }, async (req) => sup.preferencesOf(ctx.db, who(req).orgId, req.params.person_id));
  app.put('/api/communications/people/:person_id/preferences/:category', {
    config: write,
    schema: {
      tags, summary: 'Opt a person out of (or back into) a category', description: 'An opted-out person is not sent that category (logged `suppressed`, reason opted_out). `transactional` cannot be opted out of (422).',
      params: Type.Object({ person_id: Type.String({ minLength: 1, maxLength: 64 }), category: StringEnum(CATEGORIES) }),
      body: Strict({ opted_out: Type.Boolean() }), response: { 200: Preferences },
    },
  }, async (req) => {
    const { orgId, actor } = who(req);
    return ctx.db.tx(async (q) => {
      await sup.preferencesOf(q, orgId, req.params.person_id);
      await sup.setPreference(q, orgId, actor, req.params.person_id, req.params.category, req.body.opted_out, 'api');
      return sup.preferencesOf(q, orgId, req.params.person_id);
    });
  });

  // One-click unsubscribe: public (the token is the credential), POST acts at once, idempotent.
  const Unsub = Type.Object({ unsubscribed: Type.Boolean(), category: Type.String(), address: Type.String() }, { $id: 'UnsubscribeResult' });
  const tokenRow = async (orgId: string, token: string) => {
    const r = (await ctx.db.query<{ token: string; message_id: string; person_id: string | null; address: string; category: string; used_at: Date | null }>(
      'SELECT token, message_id, person_id, address, category, used_at FROM comm_unsubscribe_tokens WHERE organization_id = $1 AND token = $2', [orgId, token]))[0];
    if (!r) throw notFound('unsubscribe link');
    return r;
  };
  app.post('/api/communications/unsubscribe/:token', {
    config: { public: true },
    schema: {
      tags, summary: 'One-click unsubscribe (RFC 8058)', description: 'No key, no cookies: the token from the List-Unsubscribe header is enough. Acts at once and is idempotent. The person is opted out of the message\'s category; an address not on file is added to the suppression list (reason unsubscribed). Accepts a form body (List-Unsubscribe=One-Click), JSON or none.',
      params: TokenParam, response: { 200: Unsub },
    },
  }, async (req) => {
    const org = orgOf(req);
    const t = await tokenRow(org.id, req.params.token);
    await ctx.db.tx(async (q) => {
      if (t.person_id) await sup.setPreference(q, org.id, null, t.person_id, t.category, true, 'unsubscribe');
      else await sup.addSuppression(q, org.id, null, t.address, `unsubscribed from ${t.category}`, 'unsubscribe');
      const first = await q.query('UPDATE comm_unsubscribe_tokens SET used_at = now() WHERE organization_id = $1 AND token = $2 AND used_at IS NULL RETURNING token', [org.id, t.token]);
      if (first.length) await audit(q, org.id, 'unsubscribe-link', 'unsubscribe', 'message', t.message_id, { category: t.category });
    });
    return { unsubscribed: true, category: t.category, address: t.address };
  });
  app.get('/api/communications/unsubscribe/:token', {
    config: { public: true },
    schema: { tags, summary: 'Unsubscribe confirmation page', description: 'A small HTML page with one button; opening it changes nothing (link scanners open links).', params: TokenParam, response: { 200: Type.String() } },
  }, async (req, reply) => {
    const org = orgOf(req);
    const t = await tokenRow(org.id, req.params.token);
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const what = t.category.replace(/_/g, ' ');
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:sans-serif;max-width:32em;margin:3em auto">
<h1>Unsubscribe</h1><p>${t.used_at ? `${esc(t.address)} is unsubscribed from ${esc(what)} email from ${esc(org.name)}.` : `Stop ${esc(what)} email from ${esc(org.name)} to ${esc(t.address)}?`}</p>
${t.used_at ? '' : `<form method="post" action="/api/communications/unsubscribe/${esc(t.token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`}
</body></html>`;
    return reply.type('text/html; charset=utf-8').send(html);
  });

  // Sender and deliverability
  const stags = ['Communications: sender'];
  const showSender = (s: SenderRow, slug: string, orgName: string) => {
    const domain = sendingDomain(s, slug, ctx.config);
    return {
      from_name: s.from_name ?? orgName, from_address: `hello@${domain}`, reply_to: s.reply_to, sending_domain: domain, custom_domain: !!s.sending_domain,
      dkim_selector: s.dkim_selector, dns_records: dnsRecords(s, slug, ctx.config, safeHosts(ctx.config.smtpProviders)), updated_at: s.updated_at,
    };
  };
  app.get('/api/communications/sender', {
    config: read,
    schema: { tags: stags, summary: 'Sender identity and the DNS records to publish', description: 'A DKIM key (RSA 2048) is made at first use; outgoing mail is DKIM-signed with it. Publish the DKIM, SPF and DMARC records listed.', response: { 200: Sender } },
  }, async (req) => {
    const { org, orgId } = who(req);
    const s = await ctx.db.tx(async (q) => {
      await ensureDefaultInbox(q, orgId);
      return ensureDkim(q, orgId);
    });
    return showSender(s, org.slug, org.name);
  });
  app.patch('/api/communications/sender', {
    config: admin,
    schema: {
      tags: stags, summary: 'Change from-name, reply-to or sending domain',
      description: 'A new sending domain gets a new DKIM key and selector (publish the new records before sending). `null` clears a value (back to the defaults). Mail is then From `{inbox}@{sending_domain}`.',
      body: Strict({
        from_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
        reply_to: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
        sending_domain: Type.Optional(Nullable(Type.String({ minLength: 3, maxLength: 253 }))),
      }),
      response: { 200: Sender },
    },
  }, async (req) => {
    const { org, orgId, actor } = who(req);
    const b = req.body;
    if (b.reply_to && !isEmail(b.reply_to)) throw invalid({ reply_to: ['must be an email address'] });
    if (b.sending_domain && !/^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(b.sending_domain)) throw invalid({ sending_domain: ['must be a domain name such as mail.example.org'] });
    if (b.sending_domain && b.sending_domain.toLowerCase().endsWith(`.${ctx.config.mailDomain}`) && b.sending_domain.toLowerCase() !== mailHost(org.slug, ctx.config.mailDomain)) {
      throw invalid({ sending_domain: ["must be the organization's own domain"] });
    }
    const s = await ctx.db.tx((q) => updateSender(q, orgId, actor, b));
    return showSender(s, org.slug, org.name);
  });
}

function safeHosts(spec: string | undefined): string[] {
  try {
    return parseProviders(spec).map((p) => p.host);
  } catch {
    return [];
  }
}
