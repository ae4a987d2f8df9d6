import type { App, AppContext } from '../../platform/context.ts';
import type { FastifyRequest } from 'fastify';
import type { Organization } from '../../platform/tenancy.ts';
import { Type } from '../../platform/schema.ts';
import { notFound } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';
import * as repo from './repository.ts';

const SlugParam = Type.Object({ slug: Type.String({ maxLength: 63 }) });
const publicFields = (f: repo.FormRow) => f.fields;

const options = (list: string[]) => list.map((o) => `<option>${escapeHtml(o)}</option>`).join('');

function inputFor(f: repo.FormRow['fields'][number]): string {
  const id = `f_${f.key}`;
  const req = f.required ? ' required' : '';
  const name = escapeHtml(f.key);
  switch (f.type) {
    case 'textarea':
      return `<textarea id="${id}" name="${name}" maxlength="5000"${req}></textarea>`;
    case 'boolean':
      return `<input type="checkbox" id="${id}" name="${name}" data-kind="boolean">`;
    case 'select':
      return `<select id="${id}" name="${name}"${req}><option value=""></option>${f.options
        .map((o) => `<option>${escapeHtml(o)}</option>`)
        .join('')}</select>`;
    case 'multiselect':
      return `<select id="${id}" name="${name}" multiple data-kind="multi"${req}>${options(f.options)}</select>`;
    case 'number':
      return `<input type="number" step="any" id="${id}" name="${name}" data-kind="number"${req}>`;
    case 'date':
      return `<input type="date" id="${id}" name="${name}"${req}>`;
    case 'email':
      return `<input type="email" id="${id}" name="${name}"${req}>`;
    case 'url':
      return `<input type="url" id="${id}" name="${name}"${req}>`;
    case 'phone':
      return `<input type="tel" id="${id}" name="${name}"${req}>`;
    case 'country_state':
      return `<input id="${id}" name="${name}" data-kind="country" placeholder="Country code (e.g. US)" maxlength="2"${req}>`;
    default:
      return `<input type="text" id="${id}" name="${name}"${req}>`;
  }
}

const SCRIPT = `document.getElementById('ark-form').addEventListener('submit',async function(e){e.preventDefault();var f=e.target,a={},n=[];
for(var el of f.elements){if(!el.name||el.name==='started'||el.name==='website')continue;var k=el.dataset.kind;
if(k==='animal'){n.push(el.value);continue}
if(k==='boolean')a[el.name]=el.checked;else if(k==='multi')a[el.name]=[...el.selectedOptions].map(function(o){return o.value});
else if(el.value===''){continue}else if(k==='number')a[el.name]=Number(el.value);
else if(k==='country')a[el.name]={country:el.value};else a[el.name]=el.value;}
var r=await fetch(f.action,{method:'POST',headers:{'content-type':'application/json'},
body:JSON.stringify(Object.assign({answers:a,started:f.started.value,website:f.website.value},n.length?{animal_ids:n}:{}))});
var b=await r.json();document.getElementById('ark-msg').textContent=r.ok?b.message:b.error;if(r.ok)f.hidden=true;});`;

export function renderPage(orgName: string, f: repo.FormRow, started: string, animals: { id: string; name: string }[] = []): string {
  let section = '';
  const rows: string[] = [];
  // An application for a chosen animal names it and sends its id; the form's own "which animal" question is not asked.
  const chosen = animals.length
    ? `<p class="chosen">Applying for <strong>${animals.map((a) => escapeHtml(a.name)).join(', ')}</strong></p>\n` +
      animals.map((a) => `<input type="hidden" name="animal_ids" data-kind="animal" value="${escapeHtml(a.id)}">`).join('')
    : '';
  for (const field of f.fields) {
    if (animals.length && field.key === 'animal_name') continue;
    if (field.section && field.section !== section) {
      section = field.section;
      rows.push(`<h2>${escapeHtml(section)}</h2>`);
    }
    rows.push(
      `<p><label for="f_${escapeHtml(field.key)}">${escapeHtml(field.label)}${field.required ? ' *' : ''}</label><br>${inputFor(field)}` +
        `${field.help_text ? `<br><small>${escapeHtml(field.help_text)}</small>` : ''}</p>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(f.name)} — ${escapeHtml(orgName)}</title>
<style>*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;overflow-wrap:anywhere}
input,select,textarea{width:100%;padding:.4rem}.hp{position:absolute;left:-10000px}</style>
</head><body><h1>${escapeHtml(f.name)}</h1><p>${escapeHtml(f.description)}</p>
<form id="ark-form" method="post" action="/forms/${escapeHtml(f.slug)}/submit">
<input type="hidden" name="started" value="${escapeHtml(started)}">
<div class="hp" aria-hidden="true"><label for="website">Leave this empty</label>
<input id="website" name="website" tabindex="-1" autocomplete="off"></div>
${chosen}${rows.join('\n')}
<p><button type="submit">Send</button></p></form><p id="ark-msg" role="status"></p>
<script>${SCRIPT}</script></body></html>`;
}

/** The public side of forms: the page, its start token, and the JSON submit; no API key. */
export function publicFormRoutes(app: App, ctx: AppContext) {
  const tags = ['Forms (public)'];
  const secret = ctx.config.registrySecret;
  // These pages live outside /api, where the kernel does not resolve the organization: the host names it here.
  async function orgOf(req: FastifyRequest): Promise<Organization> {
    const org = await ctx.tenancy.forRequest(req);
    if (!org) throw notFound('form');
    return org;
  }
  async function chosenAnimals(orgId: string, f: repo.FormRow, animal: string | undefined) {
    if (!animal || f.purpose !== 'adoption_application') return [];
    return service.publicAnimals(ctx.db, orgId, [animal]);
  }
  async function published(orgId: string, slug: string) {
    const f = await repo.formBySlug(ctx.db, orgId, slug);
    if (!f || f.status !== 'published') throw notFound('form');
    return f;
  }
  app.get(
    '/forms/:slug',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A published form as an HTML page (no API key)',
        description:
          'A plain page with the fields in order under their section headings, a hidden start token and a hidden honeypot field; ' +
          'it sends the answers as JSON to /forms/{slug}/submit. A draft, closed or unknown form answers 404. An adoption ' +
          'application form opened with `?animal={id}` (the public animal page links so) names that animal, sends its id with ' +
          'the answers and does not ask the form’s `animal_name` question; an animal not shown on the public site is ignored.',
        params: SlugParam,
        querystring: S.PublicFormQuery,
        response: { 200: Type.String({ description: 'text/html' }) },
      },
    },
    async (req, reply) => {
      const org = await orgOf(req);
      const f = await published(org.id, req.params.slug);
      const animals = await chosenAnimals(org.id, f, req.query.animal);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderPage(org.name, f, service.startToken(secret, org.id, f.id), animals));
    },
  );
  app.get(
    '/forms/:slug/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A published form’s fields and a start token, as JSON (no API key)',
        description:
          'For a website that draws the form itself: send `started` back with the answers. With `?animal={id}` on an adoption ' +
          'application form, `animals` names that animal when it is shown on the public site (send its id as `animal_ids`).',
        params: SlugParam,
        querystring: S.PublicFormQuery,
        response: { 200: S.PublicStart },
      },
    },
    async (req) => {
      const org = await orgOf(req);
      const f = await published(org.id, req.params.slug);
      return {
        animals: await chosenAnimals(org.id, f, req.query.animal),
        form: { name: f.name, description: f.description, purpose: f.purpose as S.Purpose, fields: publicFields(f) as never },
        started: service.startToken(secret, org.id, f.id),
        min_fill_seconds: f.min_fill_seconds,
      };
    },
  );
  app.post(
    '/forms/:slug/submit',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Send a form (no API key)',
        description:
          'Spam protection needs no third party. (1) Honeypot: a non-empty `website` answers 201 like a success but nothing is ' +
          'stored. (2) Minimum fill time: `started` must be the token of this form’s page (or /start), issued at least the ' +
          'form’s min_fill_seconds before (default 3) and at most a day before; otherwise 422. (3) Per address: at most the form’s ' +
          'max_per_address_per_hour submissions (default 5) from one client address in the last hour, else 429 with Retry-After. ' +
          'Answers are checked as custom field values of the field’s type; unknown keys and missing required fields answer 422. ' +
          'Answers are stored as sent (after those checks). `animal_ids` (adoption application forms only) must name animals ' +
          'shown on the public site (422 otherwise); a form field `animal_name` left unanswered gets their public names. A ' +
          'submission of an adoption application form naming animals, with an email and a name, becomes in the same ' +
          'transaction an adoption application at the first open stage for those animals, from the person with that email ' +
          '(any case) or a new person, who gains the adopter role; the submission is kept, converted, naming both. Other ' +
          'submissions wait for staff to convert them.',
        params: SlugParam,
        body: S.PublicSubmit,
        response: { 201: S.PublicReceipt },
      },
    },
    async (req, reply) => {
      const org = await orgOf(req);
      await service.submit(ctx.db, org, secret, req.params.slug, req.ip, req.body);
      return reply.code(201).send({ received: true, message: 'Thank you: your form was received.' });
    },
  );
}
