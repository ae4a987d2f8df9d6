import type { App, AppContext } from '../../../platform/context.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Organization } from '../../../platform/tenancy.ts';
import { Type } from '../../../platform/schema.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { escapeHtml } from '../../../platform/html.ts';
import { use } from '../../../platform/hooks.ts';
import { sitePage } from '../../../platform/site-page.ts';
import { requestHost } from '../../../platform/request.ts';
import { getExampleNumber, type CountryCode } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import * as S from '../schemas.ts';
import * as service from '../service.ts';
import * as repo from '../repository.ts';

const SlugParam = Type.Object({ slug: Type.String({ maxLength: 63 }) });
const publicFields = (f: repo.FormRow) => f.fields;
type Field = repo.FormRow['fields'][number];
/** What the person typed, by field key: text, or the chosen options of a checkbox group. */
type Typed = Record<string, string | string[]>;

/**
 * The example in the phone message, in the organization's national format: a number people recognise as an example
 * where one is known (the US and Canada's 555-01xx, the UK's drama numbers), else libphonenumber's own example.
 */
const PHONE_EXAMPLES: Record<string, string> = { US: '617 555 0100', CA: '416 555 0100', GB: '020 7946 0958' };
export function phoneExample(country: string): string {
  const code = country.toUpperCase();
  if (PHONE_EXAMPLES[code]) return PHONE_EXAMPLES[code];
  try {
    return getExampleNumber(code as CountryCode, examples)?.formatNational() ?? '';
  } catch {
    return '';
  }
}

/** The message shown next to a field whose answer was refused, in words a person understands (never a field key). */
export function friendlyMessage(f: Pick<Field, 'type'>, typed: string | string[] | undefined, country: string): string {
  const empty = typed === undefined || (Array.isArray(typed) ? !typed.length : typed.trim() === '');
  switch (f.type) {
    case 'phone': {
      const eg = phoneExample(country);
      return `Please enter a phone number we can call${eg ? `, e.g. ${eg}` : ''}.`;
    }
    case 'email':
      return empty
        ? 'Please enter your email address, e.g. name@example.com.'
        : 'Please check this email address: it should look like name@example.com.';
    case 'select':
      return 'Please choose one of the options.';
    case 'multiselect':
      return empty ? 'Please choose at least one of the options.' : 'Please choose from the options shown.';
    case 'boolean':
      return 'Please tick this box to go on.';
    case 'number':
      return empty ? 'Please enter a number.' : 'Please enter a number in digits, e.g. 2.';
    case 'date':
      return 'Please enter a date, e.g. 2025-12-31 (year, month, day).';
    case 'url':
      return 'Please enter a web address, e.g. https://example.org.';
    case 'country_state':
      return `Please enter the two-letter code of a country, e.g. ${country.toUpperCase() || 'US'}.`;
    case 'textarea':
      return empty ? 'Please fill this in.' : 'Please shorten this to 5,000 characters or fewer.';
    default:
      return 'Please fill this in.';
  }
}

const AUTOCOMPLETE: Record<string, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  phone: 'tel',
  address: 'street-address',
  postcode: 'postal-code',
  zip: 'postal-code',
};

const nameOf = (key: string) => `a.${key}`;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

function inputFor(f: Field, typed: string | string[] | undefined, err: string | undefined): string {
  const id = `f_${f.key}`;
  const name = escapeHtml(nameOf(f.key));
  const described = [f.help_text ? `${id}_hint` : '', err ? `${id}_err` : ''].filter(Boolean).join(' ');
  const aria =
    (f.required ? ' aria-required="true"' : '') +
    (err ? ' aria-invalid="true"' : '') +
    (described ? ` aria-describedby="${described}"` : '');
  const value = escapeHtml(one(typed));
  const auto = AUTOCOMPLETE[f.key] ? ` autocomplete="${AUTOCOMPLETE[f.key]}"` : '';
  switch (f.type) {
    case 'textarea':
      return `<textarea id="${id}" name="${name}" maxlength="5000"${aria}>${value}</textarea>`;
    case 'number':
      return `<input type="text" inputmode="decimal" id="${id}" name="${name}" value="${value}"${aria}>`;
    case 'date':
      return `<input type="date" id="${id}" name="${name}" value="${value}"${aria}>`;
    case 'email':
      return `<input type="email" id="${id}" name="${name}" value="${value}"${auto || ' autocomplete="email"'}${aria}>`;
    case 'url':
      return `<input type="url" id="${id}" name="${name}" value="${value}" inputmode="url"${aria}>`;
    case 'phone':
      return `<input type="tel" id="${id}" name="${name}" value="${value}" autocomplete="tel"${aria}>`;
    case 'country_state':
      return `<input id="${id}" name="${name}" value="${value}" maxlength="2" autocomplete="country" style="max-width:8rem"${aria}>`;
    default:
      return `<input type="text" id="${id}" name="${name}" value="${value}"${auto}${aria}>`;
  }
}

/** One question: its label (or legend for a group of choices), hint, control and, after a refused answer, the message. */
function fieldHtml(f: Field, typed: string | string[] | undefined, err: string | undefined): string {
  const id = `f_${f.key}`;
  const req = f.required ? ' <span class="rq">(required)</span>' : '';
  const hint = f.help_text ? `<p class="hint" id="${id}_hint">${escapeHtml(f.help_text)}</p>` : '';
  const msg = err ? `<p class="err" id="${id}_err">${escapeHtml(err)}</p>` : '';
  const name = escapeHtml(nameOf(f.key));
  if (f.type === 'select' || f.type === 'multiselect') {
    // One choice: radio buttons; several: checkboxes. Never a multi-select box.
    const chosen = new Set(([] as string[]).concat(typed ?? []));
    const kind = f.type === 'select' ? 'radio' : 'checkbox';
    const described = [f.help_text ? `${id}_hint` : '', err ? `${id}_err` : ''].filter(Boolean).join(' ');
    const opts = f.options
      .map(
        (o, i) =>
          `<label class="ch"><input type="${kind}" name="${name}" value="${escapeHtml(o)}"${i === 0 ? ` id="${id}"` : ''}${
            chosen.has(o) ? ' checked' : ''
          }> ${escapeHtml(o)}</label>`,
      )
      .join('');
    return (
      `<fieldset class="fld"${err ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>` +
      `<legend class="lb">${escapeHtml(f.label)}${req}</legend>${hint}${opts}${msg}</fieldset>`
    );
  }
  if (f.type === 'boolean') {
    const on = one(typed) === 'yes';
    return `<div class="fld">${hint}<label class="ch"><input type="checkbox" id="${id}" name="${name}" value="yes"${on ? ' checked' : ''}${
      err ? ` aria-invalid="true" aria-describedby="${id}_err"` : ''
    }> ${escapeHtml(f.label)}${req}</label>${msg}</div>`;
  }
  return `<div class="fld"><label class="lb" for="${id}">${escapeHtml(f.label)}${req}</label>${hint}${inputFor(f, typed, err)}${msg}</div>`;
}

export interface FormView {
  started: string;
  animals?: { id: string; name: string }[];
  typed?: Typed;
  errors?: Record<string, string>;
  /** A problem with the whole submission (sent too soon, too many from one address). */
  notice?: string;
}

/** The form's part of the page (inside the site's layout): title, description, the problems, the questions, Send. */
export function formBody(f: repo.FormRow, v: FormView): string {
  const animals = v.animals ?? [];
  const typed = v.typed ?? {};
  const errors = v.errors ?? {};
  let section = '';
  const rows: string[] = [];
  for (const field of f.fields) {
    // An application for a chosen animal names it and sends its id; the form's own "which animal" question is not asked.
    if (animals.length && field.key === 'animal_name') continue;
    if (field.section && field.section !== section) {
      section = field.section;
      rows.push(`<h2>${escapeHtml(section)}</h2>`);
    }
    rows.push(fieldHtml(field, typed[field.key], errors[field.key]));
  }
  const bad = f.fields.filter((x) => errors[x.key] && !(animals.length && x.key === 'animal_name'));
  const problems =
    bad.length || v.notice
      ? `<div class="note bad" id="problems" role="alert"><strong>${
          v.notice
            ? escapeHtml(v.notice)
            : bad.length === 1
              ? 'Please check the answer marked below.'
              : `Please check the ${bad.length} answers marked below.`
        }</strong>${
          bad.length
            ? `<ul>${bad
                .map((x) => `<li><a href="#f_${escapeHtml(x.key)}">${escapeHtml(x.label)}</a>: ${escapeHtml(errors[x.key] ?? '')}</li>`)
                .join('')}</ul>`
            : ''
        }</div>`
      : '';
  const chosen = animals.length
    ? `<p class="chosen">Applying for <strong>${animals.map((a) => escapeHtml(a.name)).join(', ')}</strong></p>` +
      animals.map((a) => `<input type="hidden" name="animal_ids" data-kind="animal" value="${escapeHtml(a.id)}">`).join('')
    : '';
  return (
    `<h1>${escapeHtml(f.name)}</h1>${f.description ? `<p class="lede">${escapeHtml(f.description)}</p>` : ''}${problems}` +
    `<form class="pf" id="ark-form" method="post" action="/forms/${escapeHtml(f.slug)}#problems" novalidate>` +
    `<input type="hidden" name="started" value="${escapeHtml(v.started)}">` +
    `<div class="hp" aria-hidden="true"><label for="website">Leave this empty</label>` +
    `<input id="website" name="website" tabindex="-1" autocomplete="off"></div>` +
    `${chosen}${rows.join('\n')}` +
    `<p class="send"><button class="btn" type="submit">Send</button></p></form>` +
    (f.fields.some((x) => x.required) ? '<p class="fine">Questions marked (required) need an answer.</p>' : '')
  );
}

/** The answers from the page's fields (`a.{key}`), as the JSON submit takes them, and what was typed, to show again. */
export function answersFrom(f: repo.FormRow, body: Record<string, string | string[]>): { answers: Record<string, unknown>; typed: Typed } {
  const answers: Record<string, unknown> = {};
  const typed: Typed = {};
  for (const field of f.fields) {
    const raw = body[nameOf(field.key)];
    if (field.type === 'multiselect') {
      const list = ([] as string[]).concat(raw ?? []);
      typed[field.key] = list;
      if (list.length) answers[field.key] = list;
      continue;
    }
    const text = one(raw);
    typed[field.key] = text;
    if (field.type === 'boolean') {
      // A box that must be ticked and is not is a missing answer (the page says so); an optional one is false.
      if (text === 'yes' || !field.required) answers[field.key] = text === 'yes';
      continue;
    }
    if (text.trim() === '') continue;
    if (field.type === 'number') {
      const n = Number(text.trim().replace(/,/g, ''));
      answers[field.key] = /^-?[\d,]*\.?\d+$/.test(text.trim()) && Number.isFinite(n) ? n : text;
    } else if (field.type === 'country_state') answers[field.key] = { country: text.trim() };
    else answers[field.key] = text;
  }
  return { answers, typed };
}

/** A form post's fields; a name sent more than once (a checkbox group) is a list. */
function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const had = out[k];
    out[k] = had === undefined ? v : ([] as string[]).concat(had, v);
  }
  return out;
}

/** The words for a refused submission: per question, and for the whole form. Field keys never reach the page. */
function explain(f: repo.FormRow, e: AppError, typed: Typed, country: string): { errors: Record<string, string>; notice?: string } {
  if (e.status === 429) return { errors: {}, notice: 'We have had several forms from you in the last hour. Please try again later.' };
  const errors: Record<string, string> = {};
  let notice: string | undefined;
  for (const key of Object.keys(e.fields ?? {})) {
    const field = key.startsWith('answers.') ? f.fields.find((x) => `answers.${x.key}` === key) : undefined;
    if (field) errors[field.key] = friendlyMessage(field, typed[field.key], country);
    else if (key === 'started')
      notice = /quickly/.test(e.fields?.started?.[0] ?? '')
        ? 'That was quick! Please check your answers and press Send again.'
        : 'This page was open for a long time. Please check your answers and press Send again.';
    else if (key === 'animal_ids') notice = 'The animal you chose is no longer listed on our website. Please send the form without it.';
  }
  if (!Object.keys(errors).length && !notice)
    notice = 'Something in the form could not be accepted. Please check your answers and send it again.';
  return { errors, notice };
}

/** The public side of forms: the page (inside the site's layout), its start token, the page's post and the JSON submit; no API key. */
export function publicFormRoutes(app: App, ctx: AppContext) {
  const tags = ['Forms (public)'];
  const secret = ctx.config.registrySecret;
  // These pages live outside /api, where the kernel does not resolve the organization: the host names it here.
  async function orgOf(req: FastifyRequest): Promise<Organization> {
    const org = await ctx.tenancy.forRequest(req);
    if (!org) throw notFound('form');
    return org;
  }
  async function chosenAnimals(orgId: string, f: repo.FormRow, animal: string | string[] | undefined) {
    const ids = [...new Set(([] as string[]).concat(animal ?? []).filter((a) => typeof a === 'string' && a.length <= 64))].slice(0, 10);
    if (!ids.length || f.purpose !== 'adoption_application') return [];
    return service.publicAnimals(ctx.db, orgId, ids);
  }
  async function published(orgId: string, slug: string) {
    const f = await repo.formBySlug(ctx.db, orgId, slug);
    if (!f || f.status !== 'published') throw notFound('form');
    return f;
  }
  /** A page in the public site's layout; no script runs on it and its form posts only to this address. */
  async function sendPage(
    req: FastifyRequest,
    reply: FastifyReply,
    org: Organization,
    status: number,
    title: string,
    description: string,
    body: string,
  ) {
    const html = await use(sitePage)(ctx.db, org, {
      title,
      description,
      canonical: `${req.protocol}://${requestHost(req) ?? ''}${req.url.split(/[?#]/)[0]}`,
      body,
    });
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'; " +
          "frame-ancestors 'none'",
      )
      .send(html);
  }
  app.get(
    '/forms/:slug',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A published form as an HTML page (no API key)',
        description:
          'The form inside the public website’s layout (the organization’s name, logo, colours and footer): the fields in order ' +
          'under their section headings, a hidden start token and a hidden honeypot field. A single choice is a group of radio ' +
          'buttons, a multiple choice a group of checkboxes. No script: the page posts to itself (POST /forms/{slug}). A draft, ' +
          'closed or unknown form answers 404. An adoption application form opened with `?animal={id}` (the public animal page ' +
          'links so) names that animal, sends its id with the answers and does not ask the form’s `animal_name` question; an ' +
          'animal not shown on the public site is ignored.',
        params: SlugParam,
        querystring: S.PublicFormQuery,
        response: { 200: Type.String({ description: 'text/html' }) },
      },
    },
    async (req, reply) => {
      const org = await orgOf(req);
      const f = await published(org.id, req.params.slug);
      const animals = await chosenAnimals(org.id, f, req.query.animal);
      const started = service.startToken(secret, org.id, f.id);
      return sendPage(req, reply, org, 200, f.name, f.description || f.name, formBody(f, { started, animals }));
    },
  );
  // The page's own post: an ordinary HTML form (application/x-www-form-urlencoded), in a scope of its own.
  void app.register(async (scope) => {
    const child = scope as unknown as App;
    if (child.hasContentTypeParser('application/x-www-form-urlencoded')) child.removeContentTypeParser('application/x-www-form-urlencoded');
    child.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => {
      done(null, parseForm(String(body)));
    });
    child.post(
      '/forms/:slug',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Send a form from its HTML page (no API key)',
          description:
            'What the page at GET /forms/{slug} posts (`application/x-www-form-urlencoded`): each answer as `a.{field key}` ' +
            '(a checkbox group sends its key once per ticked option; a ticked box sends `yes`), `started`, `website` and ' +
            '`animal_ids`. The same checks as POST /forms/{slug}/submit. Accepted: 303 to /forms/{slug}/thanks. Refused: the ' +
            'page again (422, or 429 for too many from one address) with what was typed kept and a message in plain words ' +
            'next to each answer to change (a phone number is asked for with an example in the organization’s national ' +
            'format); the page never shows a field key.',
          params: SlugParam,
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
            description: 'the page’s fields as the browser sends them',
          }),
          response: {
            303: Type.Null({ description: 'accepted: see /forms/{slug}/thanks' }),
            422: Type.String({ description: 'text/html: the form again, with the answers to change marked' }),
            429: Type.String({ description: 'text/html: the form again, saying to try later' }),
          },
        },
      },
      async (req, reply) => {
        const org = await orgOf(req);
        const f = await published(org.id, req.params.slug);
        const body = req.body as Record<string, string | string[]>;
        const { answers, typed } = answersFrom(f, body);
        const animalIds = [...new Set(([] as string[]).concat(body.animal_ids ?? []))];
        const started = one(body.started);
        try {
          await service.submit(ctx.db, org, secret, f.slug, req.ip, {
            answers,
            started,
            website: one(body.website),
            ...(animalIds.length ? { animal_ids: animalIds } : {}),
          });
        } catch (e) {
          if (!(e instanceof AppError) || (e.status !== 422 && e.status !== 429)) throw e;
          const { errors, notice } = explain(f, e, typed, org.country);
          // A start token that was refused for its age (or forged) is replaced; one sent too soon still works.
          const keep = service.openedAt(secret, org.id, f.id, started) !== null;
          const view: FormView = {
            started: keep ? started : service.startToken(secret, org.id, f.id),
            animals: await chosenAnimals(org.id, f, animalIds),
            typed,
            errors,
            ...(notice ? { notice } : {}),
          };
          if (e.headers) for (const [k, v] of Object.entries(e.headers)) void reply.header(k, v);
          return sendPage(req, reply, org, e.status, `Please check: ${f.name}`, f.description || f.name, formBody(f, view));
        }
        return reply
          .code(303)
          .header('location', `/forms/${encodeURIComponent(f.slug)}/thanks`)
          .send(null);
      },
    );
  });
  app.get(
    '/forms/:slug/thanks',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The page shown after a form was sent (no API key)',
        description: 'A thank-you page in the public website’s layout, for a published form; 404 otherwise.',
        params: SlugParam,
        response: { 200: Type.String({ description: 'text/html' }) },
      },
    },
    async (req, reply) => {
      const org = await orgOf(req);
      const f = await published(org.id, req.params.slug);
      const body =
        `<div class="note good" role="status"><h1>Thank you</h1><p>We have received your ${escapeHtml(f.name)} form. ` +
        `${escapeHtml(org.name)} will be in touch soon.</p></div>` +
        `<p><a class="btn" href="/animals">See the animals waiting for a home</a></p>`;
      return sendPage(req, reply, org, 200, `Thank you: ${f.name}`, f.name, body);
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
