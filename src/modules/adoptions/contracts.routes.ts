import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { escapeHtml } from '../../platform/html.ts';
import { invalid } from '../../platform/errors.ts';
import { use } from '../../platform/hooks.ts';
import { sitePage } from '../../platform/site-page.ts';
import { requestHost } from '../../platform/request.ts';
import type { Organization } from '../../platform/tenancy.ts';
import * as contracts from './contracts.service.ts';
import * as reports from './reports.service.ts';
import * as setup from './setup.service.ts';
import { contractPdf } from './pdf.ts';
import { caller } from './routes.ts';
import {
  CageCardQuery,
  CageCardTemplate,
  CageCardTemplateCreate,
  CageCardTemplateList,
  CageCardTemplatePatch,
  ContractResend,
  ContractSend,
  ContractTemplate,
  ContractTemplateCreate,
  ContractMergeFields,
  ContractTemplateList,
  ContractTemplatePatch,
  ContractTemplateVersions,
  IdParam,
  PageQuery,
  ReconQuery,
  Reconciliation,
  SignedContract,
  SignedContractList,
  SignedContractQuery,
  SignedContractSent,
} from './schemas.ts';

const read = { permission: { area: 'animals' as const, level: 'read' as const } };
const write = { permission: { area: 'animals' as const, level: 'write' as const } };
const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };
const Binary = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: Type.String({ format: 'binary' }) } } },
});

export function contractRoutes(app: App, ctx: AppContext) {
  const tTags = ['Adoption contract templates'];
  app.get(
    '/api/animals/contract-templates',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: 'List contract templates',
        description: 'Newest first.',
        querystring: PageQuery,
        response: { 200: ContractTemplateList },
      },
    },
    async (req) => contracts.listTemplates(ctx.db, who(req).orgId, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/contract-templates',
    {
      config: admin,
      schema: {
        tags: tTags,
        summary: 'Add a contract template',
        description:
          'Plain text (paragraphs split by blank lines) with merge fields written {{name}}, filled by the same engine as ' +
          `message templates: ${contracts.CONTRACT_FIELDS.join(', ')} (GET .../merge-fields describes each). An unknown ` +
          'merge field is refused (422). Version 1.',
        body: ContractTemplateCreate,
        response: { 201: ContractTemplate },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await contracts.createTemplate(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/contract-templates/merge-fields',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: 'The merge fields a contract template may use',
        description:
          'Every merge field a contract title or body may use, in the order an editor offers them, with what it is filled ' +
          'with when a contract is made from an application. Not paged (a fixed, short list).',
        response: { 200: ContractMergeFields },
      },
    },
    async () => ({ results: [...contracts.CONTRACT_MERGE_FIELDS] }),
  );
  app.get(
    '/api/animals/contract-templates/:id',
    { config: read, schema: { tags: tTags, summary: 'One contract template', params: IdParam, response: { 200: ContractTemplate } } },
    async (req) => contracts.templateById(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/contract-templates/:id',
    {
      config: admin,
      schema: {
        tags: tTags,
        summary: 'Change a contract template',
        description:
          'A new title or body makes a new version (the old one is kept: GET .../versions); contracts already made keep the ' +
          'document they were made with. `status: archived` stops new contracts from it.',
        params: IdParam,
        body: ContractTemplatePatch,
        response: { 200: ContractTemplate },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return contracts.patchTemplate(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.get(
    '/api/animals/contract-templates/:id/versions',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: "A contract template's versions",
        description: 'Newest first.',
        params: IdParam,
        response: { 200: ContractTemplateVersions },
      },
    },
    async (req) => contracts.templateVersions(ctx.db, who(req).orgId, req.params.id),
  );

  const cTags = ['Adoption signed contracts'];
  app.get(
    '/api/animals/signed-contracts',
    {
      config: read,
      schema: {
        tags: cTags,
        summary: 'List contracts (awaiting signature, expired or signed)',
        description: 'Newest first; filter by application.',
        querystring: SignedContractQuery,
        response: { 200: SignedContractList },
      },
    },
    async (req) => contracts.listContracts(ctx.db, who(req).orgId, req.query),
  );
  app.post(
    '/api/animals/signed-contracts',
    {
      config: write,
      schema: {
        tags: cTags,
        summary: 'Make a contract and send it for signature',
        description:
          'Fills the template now for the application (its applicant, the animals applied for or `animal_ids`, the fee: ' +
          '`fee_minor` or the fee schedule quote summed over the animals, the spay/neuter due date for an unaltered animal: ' +
          '`spay_neuter_due_on` or 30 days from today). The document is frozen with its SHA-256. A signing link is made: a ' +
          'random token (only its hash is stored), single use, expiring after `expires_in_hours` (default 168). The link is ' +
          'emailed to the applicant through the communications area when sending is configured (`email` says what happened) ' +
          'and answered once here as `signing_url`. The adopter opens it without a key, reads the document, types their name ' +
          'and ticks consent; Ark records the name, time, IP address, user agent and the hash of the exact document shown. ' +
          'A signed contract is immutable: no update, no delete (a correction is a new contract).',
        body: ContractSend,
        response: { 201: SignedContractSent },
      },
    },
    async (req, reply) => reply.code(201).send(await contracts.sendContract(ctx.db, caller(req, ctx), req.body)),
  );
  app.post(
    '/api/animals/signed-contracts/:id/resend',
    {
      config: write,
      schema: {
        tags: cTags,
        summary: 'A fresh signing link for a contract awaiting signature (and the mail again)',
        description:
          'For a contract not signed yet (awaiting signature, or expired): makes a new single-use signing link valid for ' +
          '`expires_in_hours` (default 168) and answers it once as `signing_url`; the previous link stops working at once ' +
          '(its token is replaced). The link is emailed to the applicant again when sending is configured and `send_email` ' +
          'is not false (`email` says what happened). The document is unchanged. A signed contract is refused (422).',
        params: IdParam,
        body: ContractResend,
        response: { 200: SignedContractSent },
      },
    },
    async (req) => contracts.resendContract(ctx.db, caller(req, ctx), req.params.id, req.body ?? {}),
  );
  app.get(
    '/api/animals/signed-contracts/:id',
    { config: read, schema: { tags: cTags, summary: 'One contract', params: IdParam, response: { 200: SignedContract } } },
    async (req) => contracts.contractById(ctx.db, who(req).orgId, req.params.id),
  );
  app.delete(
    '/api/animals/signed-contracts/:id',
    {
      config: write,
      schema: {
        tags: cTags,
        summary: 'Withdraw a contract not signed yet',
        description: 'Answers 204; its link stops working. A signed contract is refused (422): it is immutable.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await contracts.deleteContract(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/animals/signed-contracts/:id/pdf',
    {
      config: read,
      schema: {
        tags: cTags,
        summary: 'A signed contract as PDF',
        description:
          'The document as shown, the signature block (name, time, IP address, user agent) and the document SHA-256. 422 until signed.',
        params: IdParam,
        response: Binary('application/pdf', 'the contract'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const c = await contracts.contractById(ctx.db, org.id, req.params.id);
      if (!c.signed_at) throw invalid({ id: ['the contract is not signed yet'] });
      const pdf = await contractPdf(c, org.name);
      return (reply as unknown as FastifyReply)
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="contract-${c.id}.pdf"`)
        .send(pdf);
    },
  );

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

  const rTags = ['Adoption reconciliations'];
  app.get(
    '/api/animals/reconciliations',
    {
      config: read,
      schema: {
        tags: rTags,
        summary: 'Adoption fees due against what was received, for a period',
        description:
          'Adoptions made from `from` to `to` (inclusive days in the organization time zone; returned ones included, the fee ' +
          'was due; trials only once made adoptions). Received: the donations linked to the adoption ' +
          '(POST /api/animals/adoptions/{id}/donations), plus the adopter’s unlinked post-adoption donations for that animal ' +
          'dated on or after the adoption day. `difference_minor` = received − due, per adoption and in total; `differences` ' +
          'counts the adoptions where it is not 0. Not paged (one period).',
        querystring: ReconQuery,
        response: { 200: Reconciliation },
      },
    },
    async (req) => reports.reconcile(ctx.db, who(req).org, req.query.from, req.query.to),
  );
  app.get(
    '/api/animals/reconciliations/export',
    {
      config: read,
      schema: {
        tags: rTags,
        summary: 'The reconciliation as CSV',
        description:
          'The same rows as GET /api/animals/reconciliations, one per adoption, with a header row; amounts in minor units. Text ' +
          "starting with =, +, -, @, a tab or a carriage return gets a single quote in front ('=…) so no spreadsheet runs it as a formula.",
        querystring: ReconQuery,
        response: Binary('text/csv', 'CSV (UTF-8)'),
      },
    },
    async (req, reply) => {
      const r = await reports.reconcile(ctx.db, who(req).org, req.query.from, req.query.to);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="reconciliation-${r.from}-${r.to}.csv"`)
        .send(reports.reconciliationCsv(r));
    },
  );

  const ccTags = ['Cage cards'];
  app.get(
    '/api/animals/cage-card-templates',
    {
      config: read,
      schema: {
        tags: ccTags,
        summary: 'List cage card templates',
        description: 'Newest first.',
        querystring: PageQuery,
        response: { 200: CageCardTemplateList },
      },
    },
    async (req) => setup.listCardTemplates(ctx.db, who(req).orgId, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/cage-card-templates',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Add a cage card template',
        description:
          'Layout choices: `size` (a4, letter, index_card = 5×3 in; default letter), `fields` to show (default all but photo; ' +
          'shown in a fixed order), `show_qr` (default true: a QR code to the animal’s public page, the organization website ' +
          'or else its Ark address followed by /animals/{id}). `description` prints the animal’s public description (else a ' +
          'custom field `public_description`, when it has one); `name` prints the public name. `photo` is accepted but not printed yet.',
        body: CageCardTemplateCreate,
        response: { 201: CageCardTemplate },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await setup.createCardTemplate(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/cage-card-templates/:id',
    { config: read, schema: { tags: ccTags, summary: 'One cage card template', params: IdParam, response: { 200: CageCardTemplate } } },
    async (req) => setup.cardTemplateById(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/cage-card-templates/:id',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Change a cage card template',
        params: IdParam,
        body: CageCardTemplatePatch,
        response: { 200: CageCardTemplate },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return setup.patchCardTemplate(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/cage-card-templates/:id',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Remove a cage card template',
        description: 'Answers 204.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await setup.deleteCardTemplate(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/animals/cage-card-templates/:id/cards',
    {
      config: read,
      schema: {
        tags: ccTags,
        summary: 'Render cage cards as one PDF',
        description:
          'One card per page, for the animals named by `animal_id` (repeatable) and/or every animal at `location_id` (by name, ' +
          'at most 500). Each card: public name, species, breed, sex, age (from the date of birth, else the age at the latest ' +
          'intake), microchip, intake date, description, and the QR code, as the template chooses. 400 when neither is given.',
        params: IdParam,
        querystring: CageCardQuery,
        response: Binary('application/pdf', 'the cards'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const pdf = await reports.renderCards(ctx.db, ctx.config, org, req.params.id, req.query);
      return (reply as unknown as FastifyReply)
        .type('application/pdf')
        .header('Content-Disposition', 'inline; filename="cage-cards.pdf"')
        .send(pdf);
    },
  );
}

/**
 * The signing page runs no script at all (no 'unsafe-inline' or 'unsafe-eval' for scripts: default-src 'none'), posts
 * its form only to itself and cannot be framed; inline styles (the site's stylesheet) and images from here or https (the
 * organization's logo) are the only content it loads.
 */
export const SIGNING_CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; " +
  "frame-ancestors 'none'";

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
