import { DateTime } from 'luxon';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import type { Queryable } from '../../../platform/db/db.ts';
import { getPerson } from '../../people/public.ts';
import { amount, parseAmount } from '../money.ts';
import * as repo from '../donors.repository.ts';
import { buildStatement, statementHtml, statementPdf } from '../statement.ts';
import { Donor, DonorList, DonorListQuery, IdParam, Statement, StatementParams, StatementQuery } from '../schemas.ts';
import { seesContacts, type Grants } from '../../../platform/permissions.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const tags = ['Fundraising: donors'];
const read = { permission: { area: 'fundraising' as const, level: 'read' as const } };

async function withLifetime(q: Queryable, orgId: string, rows: repo.DonorRow[]) {
  const totals = await repo.lifetimeFor(
    q,
    orgId,
    rows.map((r) => r.person_id),
  );
  return rows.map((r) => ({
    person_id: r.person_id,
    first_name: r.first_name,
    last_name: r.last_name,
    name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    has_donor_role: r.has_donor_role,
    first_gift_date: r.first_gift_date,
    last_gift_date: r.last_gift_date,
    gift_count: r.gift_count,
    lifetime: totals
      .filter((t) => t.donor_id === r.person_id)
      .map((t) => ({ currency: t.currency, amount: amount(t.amount_minor, t.currency) ?? 0, count: Number(t.count) })),
    recurring: r.recurring,
    last_recurring_date: r.last_recurring_date,
  }));
}

const CONTACTS_RULE = ' A key without read on People sees names only: `email` is null.';
const Q_RULE = ' For such a key `q` matches names only, never the email, so a search cannot reveal contact details.';
/** A key without read on People sees a donor's name only (a year-end statement, made to be mailed, keeps its address). */
function namesOnly<T extends { email: string | null }>(grants: Grants, d: T): T {
  return seesContacts(grants) ? d : { ...d, email: null };
}

export function donorRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/fundraising/donors',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: 'List donors',
        description:
          'Donors are people (not deleted) with the `donor` role or with at least one gift on the donation ledger (any source, ' +
          'auction wins included). Giving is computed from the ledger. `lifetime` is per currency; `min_lifetime` and the ' +
          '`lifetime` sort ' +
          "use the giving in `currency` (default: the organization's). `gave_since`: last gift on or after the date. " +
          '`lapsed_since`: gave ' +
          'before but nothing on or after the date (people with no gift at all are not lapsed). `recurring`: has at least one ' +
          'gift of type ' +
          'recurring. Default sort `-last_gift` (most recent first; never-gave last).' +
          CONTACTS_RULE +
          REPLICA_READ +
          Q_RULE,
        querystring: DonorListQuery,
        response: { 200: DonorList },
      },
    },
    async (req) => {
      const { org, orgId } = who(req);
      const qy = req.query;
      const currency = qy.currency ?? org.currency;
      const errors: Record<string, string[]> = {};
      const min =
        qy.min_lifetime !== undefined ? parseAmount(errors, 'min_lifetime', qy.min_lifetime, currency, { allowZero: true }) : undefined;
      if (Object.keys(errors).length) throw invalid(errors);
      const grants = who(req).principal.grants;
      const rows = await repo.listDonors(
        req.db,
        orgId,
        {
          q: qy.q,
          qMatchesEmail: seesContacts(grants),
          currency,
          minLifetimeMinor: min ?? undefined,
          gaveSince: qy.gave_since,
          lapsedSince: qy.lapsed_since,
          recurring: qy.recurring,
          sort: qy.sort ?? '-last_gift',
        },
        qy.limit,
        qy.offset,
      );
      const donors = (await withLifetime(req.db, orgId, rows.slice(0, qy.limit))).map((d) => namesOnly(grants, d));
      return { ...pageB(donors, qy.limit, qy.offset), has_more: rows.length > qy.limit, currency };
    },
  );

  app.get(
    '/api/fundraising/donors/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get a donor',
        description: 'By person id. A person who is neither a donor by role nor has any gift answers 404.' + CONTACTS_RULE,
        params: IdParam,
        response: { 200: Donor },
      },
    },
    async (req) => {
      const { org, orgId } = who(req);
      const rows = await repo.listDonors(
        ctx.db,
        orgId,
        { personId: req.params.id, currency: org.currency, sort: 'name', qMatchesEmail: false },
        1,
        0,
      );
      const [donor] = await withLifetime(ctx.db, orgId, rows);
      if (!donor) throw notFound('donor');
      return namesOnly(who(req).principal.grants, donor);
    },
  );

  app.get(
    '/api/fundraising/donors/:id/statements/:year',
    {
      config: read,
      schema: {
        tags,
        summary: 'Year-end giving statement',
        description:
          'A written acknowledgement of every gift the person made in the calendar year (by gift date), to send to the donor. ' +
          'Amounts are exact and per currency. Auction wins are shown with the item received and its fair market value; the deductible ' +
          'amount is the price paid minus that value, never below 0 (a lot without a stated value counts as value 0 and is marked so). ' +
          'Every other gift states that no goods or services were provided. `format`: json (default), text (text/plain), html ' +
          '(text/html) ' +
          'or pdf (application/pdf). A person with no gifts that year gets a statement saying so. 404 for a person not on file.',
        params: StatementParams,
        querystring: StatementQuery,
        response: { 200: Statement },
      },
    },
    async (req, reply) => {
      const { org, orgId } = who(req);
      const person = await getPerson(ctx.db, orgId, req.params.id);
      if (!person) throw notFound('person');
      const gifts = await repo.giftsInYear(ctx.db, orgId, person.id, req.params.year);
      const s = buildStatement({
        org: { name: org.name, email: org.email, phone: org.phone, website: org.website },
        donor: {
          person_id: person.id,
          first_name: person.first_name,
          last_name: person.last_name,
          email: person.email || null,
          address: person.address ?? null,
        },
        year: req.params.year,
        issuedOn: DateTime.now().setZone(org.time_zone).toISODate() ?? new Date().toISOString().slice(0, 10),
        gifts,
      });
      // Documents bypass the JSON serializer: the reply is widened from the route's response type.
      const doc = reply as unknown as FastifyReply;
      const file = `giving-statement-${req.params.year}-${person.id}`;
      switch (req.query.format ?? 'json') {
        case 'text':
          return doc.type('text/plain; charset=utf-8').send(s.text);
        case 'html':
          return doc.type('text/html; charset=utf-8').send(statementHtml(s));
        case 'pdf':
          return doc
            .type('application/pdf')
            .header('Content-Disposition', `inline; filename="${file}.pdf"`)
            .send(await statementPdf(s));
        case 'json':
          return s;
      }
    },
  );
}
