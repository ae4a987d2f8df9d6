import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { escapeHtml } from '../../../platform/html.ts';
import * as service from '../delivery.service.ts';

const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });

/** /api/communications/unsubscribe/{token}: one-click unsubscribe, public (the token is the credential). */
export function unsubscribeRoutes(app: App, ctx: AppContext) {
  // RFC 8058: the one-click POST comes as a form (List-Unsubscribe=One-Click); its content does not matter.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
  app.addContentTypeParser('multipart/form-data', (_req, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
  });

  const tags = ['Communications: suppressions and preferences'];
  // One-click unsubscribe: public (the token is the credential), POST acts at once, idempotent.
  const Unsub = Type.Object(
    { unsubscribed: Type.Boolean(), category: Type.String(), address: Type.String() },
    { $id: 'UnsubscribeResult' },
  );
  app.post(
    '/api/communications/unsubscribe/:token',
    {
      // Mail clients post the one-click form (List-Unsubscribe=One-Click); the body is not read.
      config: { public: true, acceptsAnyBody: true },
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
      const what = t.category.replace(/_/g, ' ');
      const html =
        `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body ` +
        `style="font-family:sans-serif;max-width:32em;margin:3em auto">
<h1>Unsubscribe</h1><p>${
          t.used_at
            ? `${escapeHtml(t.address)} is unsubscribed from ${escapeHtml(what)} email ` + `from ${escapeHtml(org.name)}.`
            : `Stop ${escapeHtml(what)} email from ${escapeHtml(org.name)} to ${escapeHtml(t.address)}?`
        }</p>
${
  t.used_at
    ? ''
    : `<form method="post" action="/api/communications/unsubscribe/${escapeHtml(t.token)}"><input type="hidden" ` +
      `name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
}
</body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );
}
