import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { escapeHtml } from '../../../platform/html.ts';
import { use } from '../../../platform/hooks.ts';
import { sitePage } from '../../../platform/site-page.ts';
import { requestHost } from '../../../platform/request.ts';
import type { Organization } from '../../../platform/tenancy.ts';
import * as contracts from '../contracts.service.ts';

/** /sign/{token}: the public page where an applicant reads and signs a contract (no key: the token is the credential). */
export function signingRoutes(app: App, ctx: AppContext) {
  // The public signing page: no key; the token is the credential. Served at /sign/{token} on the organization's address.
  void app.register(async (child) => {
    if (child.hasContentTypeParser('application/x-www-form-urlencoded')) child.removeContentTypeParser('application/x-www-form-urlencoded');
    child.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const orgFor = (req: FastifyRequest) => ctx.tenancy.forRequest(req);
    const TokenParam = Type.Object({ token: Type.String({ maxLength: 200 }) });
    child.get<{ Params: { token: string } }>(
      '/sign/:token',
      { config: { public: true }, schema: { hide: true, params: TokenParam } },
      async (req, reply) => {
        const org = await orgFor(req);
        if (!org) return page(ctx, req, reply, null, 404, 'Not found', '<p>No organization is served at this address.</p>');
        const s = await contracts.signingState(ctx.db, org.id, req.params.token);
        return statePage(ctx, req, reply, org, req.params.token, s);
      },
    );
    child.post<{ Params: { token: string } }>(
      '/sign/:token',
      { config: { public: true }, schema: { hide: true, params: TokenParam } },
      async (req, reply) => {
        const org = await orgFor(req);
        if (!org) return page(ctx, req, reply, null, 404, 'Not found', '<p>No organization is served at this address.</p>');
        const body = (req.body ?? {}) as Record<string, unknown>;
        const str = (k: string) => (typeof body[k] === 'string' ? body[k] : '');
        const s = await contracts.sign(ctx.db, org.id, req.params.token, {
          name: str('name'),
          consent: ['on', 'true', 'yes', '1'].includes(str('consent')),
          document_sha256: str('document_sha256'),
          ip: req.ip,
          user_agent: String(req.headers['user-agent'] ?? ''),
        });
        if (s.state === 'signed')
          return page(
            ctx,
            req,
            reply,
            org,
            200,
            'Signed',
            `<div class="note good" role="status"><h1>Thank you</h1><p>${escapeHtml(s.contract.signed_name ?? '')} signed ` +
              `“${escapeHtml(s.contract.title)}” for ${escapeHtml(org.name)} on ` +
              `${escapeHtml(when(org, s.contract.signed_at as string | Date))}.</p></div>` +
              `<p class="fine">Document fingerprint (SHA-256): <code>${s.contract.document_sha256}</code></p>`,
          );
        if (s.state === 'invalid') {
          const name = str('name');
          const on =
            !name.trim() || name.trim().length > 200 ? 'name' : !['on', 'true', 'yes', '1'].includes(str('consent')) ? 'consent' : 'form';
          return statePage(
            ctx,
            req,
            reply,
            org,
            req.params.token,
            { state: 'open', contract: s.contract },
            { on, message: s.message, name },
            422,
          );
        }
        return statePage(ctx, req, reply, org, req.params.token, s);
      },
    );
  });
}

/**
 * The signing page runs no script at all (no 'unsafe-inline' or 'unsafe-eval' for scripts: default-src 'none'), posts
 * its form only to itself and cannot be framed; the site's stylesheet (from this address) with the organization's colours
 * inline, and images from here or https (the organization's logo), are the only content it loads.
 */
export const SIGNING_CSP =
  "default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; " +
  "base-uri 'none'; frame-ancestors 'none'";

/** A signing page: inside the public website's layout (the organization's name, logo and colours) when there is an organization. */
async function page(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  org: Organization | null,
  status: number,
  title: string,
  inner: string,
) {
  const html = org
    ? await use(sitePage)(ctx.db, org, {
        title,
        description: `${title} · ${org.name}`,
        canonical: `${req.protocol}://${requestHost(req) ?? ''}/sign`,
        body: inner,
      })
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title></head>` +
      '<body style="font-family:sans-serif;max-width:42em;margin:2em auto;padding:0 1em;line-height:1.5">' +
      `${inner}</body></html>`;
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .header('Content-Security-Policy', SIGNING_CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A moment as the organization reads it: "November 28, 2026 at 5:30 AM" in its time zone. */
function when(org: Organization, at: string | Date): string {
  const d = new Date(at);
  try {
    return new Intl.DateTimeFormat(`en-${org.country || 'US'}`, { dateStyle: 'long', timeStyle: 'short', timeZone: org.time_zone }).format(
      d,
    );
  } catch {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(d);
  }
}

/** Where a refused signature's message goes: next to the name, next to the box, or over the form. */
type SignError = { on: 'name' | 'consent' | 'form'; message: string; name: string };

function statePage(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  org: Organization,
  token: string,
  s: contracts.SigningState,
  error?: SignError,
  status?: number,
) {
  const orgName = org.name;
  if (s.state === 'unknown')
    return page(
      ctx,
      req,
      reply,
      org,
      404,
      'Link not found',
      '<h1>This signing link is not valid</h1><p>Check that you used the whole link from the email, or ask the rescue for a new one.</p>',
    );
  if (s.state === 'used')
    return page(
      ctx,
      req,
      reply,
      org,
      410,
      'Already signed',
      `<h1>This contract is already signed</h1><p>The signing link works once and was used${
        s.contract.signed_at ? ` on ${escapeHtml(when(org, s.contract.signed_at))}` : ''
      }. Contact ${escapeHtml(orgName)} for a copy.</p>`,
    );
  if (s.state === 'expired')
    return page(
      ctx,
      req,
      reply,
      org,
      410,
      'Link expired',
      `<h1>This signing link has expired</h1><p>Ask ${escapeHtml(orgName)} to send you a new one.</p>`,
    );
  const c = s.contract;
  const paras = c.document
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const on = (where: SignError['on']) => (error?.on === where ? error.message : '');
  const nameErr = on('name');
  const consentErr = on('consent');
  return page(
    ctx,
    req,
    reply,
    org,
    status ?? 200,
    c.title,
    `<h1>${escapeHtml(c.title)}</h1><p class="lede">Please read the contract from ${escapeHtml(orgName)}, then sign it below.</p>` +
      `<div class="doc">${paras}</div>` +
      `<p class="fine">Document fingerprint (SHA-256): <code>${c.document_sha256}</code></p>` +
      (error ? `<div class="note bad" id="problems" role="alert"><strong>${escapeHtml(error.message)}</strong></div>` : '') +
      `<form class="pf" method="post" action="/sign/${encodeURIComponent(token)}#problems" novalidate>` +
      `<input type="hidden" name="document_sha256" value="${c.document_sha256}">` +
      `<div class="fld"><label class="lb" for="sign-name">Type your full name to sign</label>` +
      '<input id="sign-name" name="name" maxlength="200" autocomplete="name" aria-required="true"' +
      ` value="${escapeHtml(error?.name ?? '')}"` +
      `${nameErr ? ' aria-invalid="true" aria-describedby="sign-name-err"' : ''}>` +
      `${nameErr ? `<p class="err" id="sign-name-err">${escapeHtml(nameErr)}</p>` : ''}</div>` +
      `<div class="fld"><label class="ch"><input type="checkbox" name="consent" value="yes" id="sign-consent"` +
      `${consentErr ? ' aria-invalid="true" aria-describedby="sign-consent-err"' : ''}>` +
      ' I have read this contract and agree to sign it electronically.</label>' +
      `${consentErr ? `<p class="err" id="sign-consent-err">${escapeHtml(consentErr)}</p>` : ''}</div>` +
      `<p class="send"><button class="btn" type="submit">Sign</button></p></form>`,
  );
}
