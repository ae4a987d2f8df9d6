import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as adoptions from '../adoptions.service.ts';
import { caller, read, write } from './access.ts';
import {
  Adoption,
  AdoptionList,
  AdoptionPatch,
  AdoptionQuery,
  AdoptionReturn,
  DonationLink,
  FeePayment,
  FeePaymentResult,
  IdParam,
  TrialComplete,
} from '../schemas.ts';

/** /api/animals/adoptions: adoptions, trials completed, returns, linked donations and fee payments. */
export function adoptionRoutes(app: App, ctx: AppContext) {
  const adTags = ['Adoptions'];
  app.get(
    '/api/animals/adoptions',
    {
      config: read,
      schema: {
        tags: adTags,
        summary: 'List adoptions',
        description: 'Newest first. A returned adoption stays listed (status `returned`): it still counts as an adoption.',
        querystring: AdoptionQuery,
        response: { 200: AdoptionList },
      },
    },
    async (req) => adoptions.listAdoptions(ctx.db, who(req).orgId, req.query),
  );
  app.get(
    '/api/animals/adoptions/:id',
    { config: read, schema: { tags: adTags, summary: 'One adoption', params: IdParam, response: { 200: Adoption } } },
    async (req) => adoptions.getAdoption(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/adoptions/:id',
    {
      config: write,
      schema: {
        tags: adTags,
        summary: "Set an adoption's contract",
        description: 'Only `contract_id`, once: a signed contract of the same application. Everything else about an adoption is history.',
        params: IdParam,
        body: AdoptionPatch,
        response: { 200: Adoption },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return adoptions.setContract(ctx.db, orgId, req.params.id, req.body.contract_id, actor);
    },
  );
  app.post(
    '/api/animals/adoptions/:id/complete',
    {
      config: write,
      schema: {
        tags: adTags,
        summary: 'A trial adoption becomes an adoption',
        description:
          'Only for status `trial`: records the adoption outcome now (or `occurred_at`), ends a live foster assignment, gives ' +
          'the adopter role and closes the other applications, as finalization does.',
        params: IdParam,
        body: TrialComplete,
        response: { 200: Adoption },
      },
    },
    async (req) => adoptions.completeTrial(ctx.db, caller(req, ctx), req.params.id, req.body.occurred_at),
  );
  app.post(
    '/api/animals/adoptions/:id/return',
    {
      config: write,
      schema: {
        tags: adTags,
        summary: 'Record a return',
        description:
          'An adoption becomes `returned` with date and reason and a new intake opens (relinquished, flagged adoption return, ' +
          'the adopter as source); the adoption outcome stands and is still counted. `within_return_window` says whether it ' +
          "came back within the organization's window for the species (settings `return_window_days`): a return after the " +
          'window is accepted the same. A trial becomes `trial_ended` and opens nothing (the animal never left care).',
        params: IdParam,
        body: AdoptionReturn,
        response: { 200: Adoption },
      },
    },
    async (req) => adoptions.returnAdoption(ctx.db, caller(req, ctx), req.params.id, req.body),
  );
  app.post(
    '/api/animals/adoptions/:id/donations',
    {
      config: write,
      schema: {
        tags: adTags,
        summary: 'Link a donation (a payment or post-adoption gift) to an adoption',
        description:
          'Either `donation_id` (an existing donation of any type; each donation links to at most one adoption) or ' +
          '`amount_minor` to record a new post-adoption donation from the adopter for the animal (payment method default ' +
          'other, date default today). Linked donations count as received in reconciliations. Answers 201 with the adoption.',
        params: IdParam,
        body: DonationLink,
        response: { 201: Adoption },
      },
    },
    async (req, reply) => reply.code(201).send(await adoptions.linkDonation(ctx.db, caller(req, ctx), req.params.id, req.body)),
  );
  app.post(
    '/api/animals/adoptions/:id/fee-payments',
    {
      config: write,
      schema: {
        tags: adTags,
        summary: 'Record the adoption fee as paid',
        description:
          'Records what the adopter paid (`amount_minor` in the organization currency, `payment_method`, `date`: default today, ' +
          'never in the future) as an exact ledger entry: a donation of type `post-adoption` from the adopter for the animal, ' +
          'with source `adoption_fee`, linked to the adoption, all in one transaction with its audit rows. No payment is taken: ' +
          'the money was received elsewhere. Several payments may be recorded (instalments); the adoption answers ' +
          '`fee_paid_minor` (their sum) beside `fee_minor` (the fee due), and reconciliations count them as received. A trial ' +
          'that ended without adoption takes no fee (422). Answers 201 with the adoption and the ledger entry id.',
        params: IdParam,
        body: FeePayment,
        response: { 201: FeePaymentResult },
      },
    },
    async (req, reply) => reply.code(201).send(await adoptions.recordFeePayment(ctx.db, caller(req, ctx), req.params.id, req.body)),
  );
}
