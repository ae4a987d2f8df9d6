import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as apps from '../applications.service.ts';
import * as adoptions from '../adoptions.service.ts';
import { caller, read, write } from './access.ts';
import {
  Application,
  ApplicationCreate,
  ApplicationFeePaymentResult,
  ApplicationList,
  ApplicationPatch,
  ApplicationQuery,
  ApplicationWithWarnings,
  FeePayment,
  Finalize,
  FinalizeResult,
  IdParam,
} from '../schemas.ts';

/** /api/animals/adoption-applications: applications, their finalization into adoptions and fees paid with them. */
export function applicationRoutes(app: App, ctx: AppContext) {
  const appTags = ['Adoption applications'];
  app.get(
    '/api/animals/adoption-applications',
    {
      config: read,
      schema: {
        tags: appTags,
        summary: 'List adoption applications',
        description: 'Newest submission first; filter by animal applied for, applicant, stage or stage kind.',
        querystring: ApplicationQuery,
        response: { 200: ApplicationList },
      },
    },
    async (req) => apps.listApplications(ctx.db, who(req).orgId, req.query),
  );
  app.post(
    '/api/animals/adoption-applications',
    {
      config: write,
      schema: {
        tags: appTags,
        summary: 'Record an adoption application',
        description:
          'The applicant is a person on file (`person_id`) or `applicant` (first and last name, email, phone): the person with ' +
          'that email is used when one exists, otherwise a new person is created in the same transaction. One or more animals ' +
          '(several open applications per animal are normal). `answers` are the custom fields of entity type ' +
          '`adoption_application` (GET /api/animals/custom-fields?entity_type=adoption_application), checked like any custom field. The ' +
          "stage defaults to the organization's first open stage. The answer carries `warnings` (applicant flagged banned or do " +
          'not adopt: the adoption will be refused unless an admin overrides; an animal not in care or on hold) and ' +
          '`registry_flags`: live flags about the applicant from the cross-organization registry. Warnings never refuse the application.',
        body: ApplicationCreate,
        response: { 201: ApplicationWithWarnings },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await apps.createApplication(ctx.db, org, req.body, actor, ctx.config.registrySecret));
    },
  );
  app.get(
    '/api/animals/adoption-applications/:id',
    {
      config: read,
      schema: { tags: appTags, summary: 'One adoption application', params: IdParam, response: { 200: Application } },
    },
    async (req) => apps.getApplication(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/adoption-applications/:id',
    {
      config: write,
      schema: {
        tags: appTags,
        summary: 'Move an application to a stage, assign it, note, answer',
        description:
          'Moving to a stage records the decision it implies, with `decided_at` now: an approved stage → `approved`; a closed ' +
          'stage named Denied or Withdrawn → `denied` / `withdrawn`, any other closed stage → `closed`; an open stage clears the ' +
          'decision. `decision_reason` says why (cleared on a move without one). A finalized application (`decision: adopted`) ' +
          'no longer changes stage. `answers` merge into the current answers.',
        params: IdParam,
        body: ApplicationPatch,
        response: { 200: Application },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return apps.patchApplication(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.post(
    '/api/animals/adoption-applications/:id/finalize',
    {
      config: write,
      schema: {
        tags: appTags,
        summary: 'Finalize an application into adoptions',
        description:
          'One transaction, one adoption per animal (`animal_ids`, default every animal applied for). The application must be ' +
          'at an `approved` stage. Refused (422) while an animal has a live hold, has no open stay, or its stay already has an ' +
          'adoption or trial (one per stay, also enforced by the database: of concurrent finalizations one wins). An applicant ' +
          'flagged `banned` or `do not adopt` is refused (422) unless `flag_override_reason` is given by a key with admin on ' +
          'animals (403 otherwise); the override is audited. For each animal: an outcome of type adoption closes its open stay ' +
          "(status moves by the organization's status mapping), a live foster assignment ends with reason `adopted`, the " +
          'applicant gains the `adopter` role, and the fee comes from the fee schedule in force (the rule and promotion are ' +
          'named); `fee_minor` overrides it and needs `fee_override_reason`. `contract_id` names a signed contract of this ' +
          'application. The other applications naming these animals close (stage Animal adopted, reason `animal adopted`) and, ' +
          "after commit, their applicants get the organization's chosen template (settings `closed_template_id`; none: no mail). " +
          '`trial: true` records a foster-to-adopt trial instead: no outcome, no role, no closing; it ends with ' +
          'POST /api/animals/adoptions/{id}/complete or /return. `warnings` names bonded partners left behind.',
        params: IdParam,
        body: Finalize,
        response: { 201: FinalizeResult },
      },
    },
    async (req, reply) => reply.code(201).send(await adoptions.finalize(ctx.db, caller(req, ctx), req.params.id, req.body)),
  );
  app.post(
    '/api/animals/adoption-applications/:id/fee-payments',
    {
      config: write,
      schema: {
        tags: appTags,
        summary: 'Record the adoption fee as paid before finalizing',
        description:
          'The fee is often paid at the desk before the paperwork is done. Records what the applicant paid (`amount_minor` in ' +
          'the organization currency, `payment_method`, `date`: default today, never in the future) as an exact ledger entry, ' +
          'as POST /api/animals/adoptions/{id}/fee-payments does: a donation of type `post-adoption` from the applicant, with ' +
          'source `adoption_fee`, for the animal when exactly one is applied for. The application then answers ' +
          '`fee_paid_minor` and `fee_payment_ids`. Finalizing moves each payment to the adoption of its animal (else the first ' +
          "adoption), where it counts in the adoption's `fee_paid_minor`. Refused (422) once the application is finalized " +
          '(record it on the adoption) or closed. Several payments may be recorded. Answers 201 with the application and the ' +
          'ledger entry id.',
        params: IdParam,
        body: FeePayment,
        response: { 201: ApplicationFeePaymentResult },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await adoptions.recordApplicationFeePayment(ctx.db, caller(req, ctx), req.params.id, req.body)),
  );
}
