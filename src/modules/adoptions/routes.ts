import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { allows } from '../../platform/permissions.ts';
import * as apps from './applications.service.ts';
import * as adoptions from './adoptions.service.ts';
import * as setup from './setup.service.ts';
import { quote } from './fees.ts';
import { DateTime } from 'luxon';
import { Type } from '../../platform/schema.ts';
import {
  Adoption,
  AdoptionList,
  AdoptionPatch,
  AdoptionQuery,
  AdoptionReturn,
  AdoptionSettings,
  AdoptionSettingsPatch,
  Application,
  ApplicationCreate,
  ApplicationList,
  ApplicationPatch,
  ApplicationQuery,
  ApplicationWithWarnings,
  DonationLink,
  FeePayment,
  FeePaymentResult,
  ApplicationFeePaymentResult,
  FeeQuote,
  FeeQuoteQuery,
  FeeSchedule,
  FeeScheduleCreate,
  FeeScheduleList,
  FeeSchedulePatch,
  Finalize,
  FinalizeResult,
  IdParam,
  PageQuery,
  Stage,
  StageCreate,
  StageList,
  StagePatch,
  TrialComplete,
} from './schemas.ts';

const read = { permission: { area: 'animals' as const, level: 'read' as const } };
const write = { permission: { area: 'animals' as const, level: 'write' as const } };
const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };

export function caller(req: FastifyRequest, ctx: AppContext): adoptions.Caller {
  const { org, actor, principal } = who(req);
  return { org, actor, principal, config: ctx.config, isAdmin: allows(principal.grants, 'animals', 'admin') };
}

export function adoptionRoutes(app: App, ctx: AppContext) {
  const stageTags = ['Adoption application stages'];
  app.get(
    '/api/animals/application-stages',
    {
      config: read,
      schema: {
        tags: stageTags,
        summary: "The organization's application stages",
        description:
          'In order (`sort_order`, then name). Every organization starts with: More info needed, Pending vet check, Pending home ' +
          'visit, Pending adoption (open), Approved (approved), Denied, Withdrawn, Animal adopted (closed). `open` stages are ' +
          'still being decided; an application at an `approved` stage may be finalized (several may be approved for one ' +
          'animal); `closed` ends it. Not paged: an organization has a handful.',
        response: { 200: StageList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      await apps.ensureDefaults(ctx.db, orgId);
      return { results: await apps.listStages(ctx.db, orgId) };
    },
  );
  app.post(
    '/api/animals/application-stages',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Add an application stage',
        description:
          'Admin: stages are settings. Names are unique per organization (any case). `sort_order` defaults to after the last stage.',
        body: StageCreate,
        response: { 201: Stage },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await apps.ensureDefaults(ctx.db, orgId);
      return reply.code(201).send(await apps.createStage(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/application-stages/:id',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Rename, reorder or re-kind a stage',
        description: 'Applications at the stage keep their recorded decision until they move.',
        params: IdParam,
        body: StagePatch,
        response: { 200: Stage },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return apps.patchStage(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/application-stages/:id',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Remove an unused stage',
        description: 'Refused (422) while any application is at the stage. Answers 204.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await apps.deleteStage(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

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

  app.get(
    '/api/animals/adoption-settings',
    {
      config: read,
      schema: {
        tags: adTags,
        summary: 'Adoption settings',
        description:
          'Return windows per species in days (`*`: any other species; default dog 30, cat 7, others 14) and the message ' +
          'template told to applicants whose application closed because the animal was adopted (null: none).',
        response: { 200: AdoptionSettings },
      },
    },
    async (req) => setup.getSettings(ctx.db, who(req).orgId),
  );
  app.patch(
    '/api/animals/adoption-settings',
    {
      config: admin,
      schema: {
        tags: adTags,
        summary: 'Change adoption settings',
        description: '`return_window_days` replaces the whole map. `closed_template_id` must name a message template.',
        body: AdoptionSettingsPatch,
        response: { 200: AdoptionSettings },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return setup.patchSettings(ctx.db, orgId, req.body, actor);
    },
  );

  const feeTags = ['Adoption fee schedules'];
  app.get(
    '/api/animals/fee-schedules',
    {
      config: read,
      schema: {
        tags: feeTags,
        summary: 'List fee schedules',
        description: 'The active one first.',
        querystring: PageQuery,
        response: { 200: FeeScheduleList },
      },
    },
    async (req) => setup.listSchedules(ctx.db, who(req).org, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/fee-schedules',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Add a fee schedule',
        description:
          'Money in integer minor units of the organization currency. `rules` are tried in order and the first the animal ' +
          'matches is chosen: species (any case; none: any), age in weeks on the adoption day in [min_age_weeks, max_age_weeks) ' +
          '(from the date of birth, else the age recorded at the latest intake; an animal of unknown age matches only rules ' +
          'without age bounds), special needs (given at finalization). No rule matching: fee 0 with no rule named. ' +
          '`promotions` are date-bounded (inclusive, organization days) and may be limited to a species; of those in force the ' +
          'one giving the lowest fee applies (waive, percent off rounded to whole minor units, or an amount off, never below 0). ' +
          'One schedule is active per organization: an active new schedule deactivates the current one.',
        body: FeeScheduleCreate,
        response: { 201: FeeSchedule },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await setup.createSchedule(ctx.db, org, req.body, actor));
    },
  );
  app.get(
    '/api/animals/:id/adoption-fee',
    {
      config: read,
      schema: {
        tags: feeTags,
        summary: 'The fee the active schedule asks for an animal',
        description: 'As finalization would choose it on `on` (default today): the rule, the promotion and the amount.',
        params: IdParam,
        querystring: FeeQuoteQuery,
        response: { 200: FeeQuote },
      },
    },
    async (req) => {
      const { org } = who(req);
      const on = req.query.on ?? (DateTime.now().setZone(org.time_zone).toISODate() as string);
      return quote(ctx.db, org, req.params.id, on, req.query.special_needs ?? false);
    },
  );
  app.get(
    '/api/animals/fee-schedules/:id',
    { config: read, schema: { tags: feeTags, summary: 'One fee schedule', params: IdParam, response: { 200: FeeSchedule } } },
    async (req) => setup.scheduleById(ctx.db, who(req).org, req.params.id),
  );
  app.patch(
    '/api/animals/fee-schedules/:id',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Change a fee schedule',
        description: '`rules` and `promotions` replace the lists. Adoptions already made keep their fee and rule name.',
        params: IdParam,
        body: FeeSchedulePatch,
        response: { 200: FeeSchedule },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return setup.patchSchedule(ctx.db, org, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/fee-schedules/:id',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Remove a fee schedule',
        description: 'Answers 204. Adoptions keep their fee and rule name.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      await setup.deleteSchedule(ctx.db, org, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
