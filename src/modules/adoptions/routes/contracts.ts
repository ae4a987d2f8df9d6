import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as contracts from '../contracts.service.ts';
import { Binary, caller, read, write } from './access.ts';
import {
  ContractResend,
  ContractSend,
  IdParam,
  SignedContract,
  SignedContractList,
  SignedContractQuery,
  SignedContractSent,
} from '../schemas.ts';

/** /api/animals/signed-contracts: contracts made from a template, sent for signature, signed (as PDF). */
export function signedContractRoutes(app: App, ctx: AppContext) {
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
      const { contract, pdf } = await contracts.signedContractPdf(ctx.db, who(req).org, req.params.id);
      return (reply as unknown as FastifyReply)
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="contract-${contract.id}.pdf"`)
        .send(pdf);
    },
  );
}
