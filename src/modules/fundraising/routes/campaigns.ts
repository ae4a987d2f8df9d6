import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as service from '../campaigns.service.ts';
import { Campaign, CampaignCreate, CampaignList, CampaignListQuery, CampaignSummary, CampaignUpdate, IdParam } from '../schemas.ts';

const tags = ['Fundraising: campaigns'];
const read = { permission: { area: 'fundraising' as const, level: 'read' as const } };
const write = { permission: { area: 'fundraising' as const, level: 'write' as const } };
const RAISED =
  'Raised money is computed from the donation ledger: every donation (Family A included) whose campaignId is this campaign, plus ' +
  "every settled auction lot of the campaign's auctions (each settled lot is one ledger donation with source `auction`). Totals " +
  "are per currency and never converted; `raised_toward_goal` counts only the goal's currency.";

export function campaignRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/fundraising/campaigns',
    {
      config: read,
      schema: {
        tags,
        summary: 'List campaigns',
        description: `Newest first. ${RAISED}`,
        querystring: CampaignListQuery,
        response: { 200: CampaignList },
      },
    },
    async (req) => {
      const { limit, offset, status, q } = req.query;
      return pageB(await service.listCampaigns(ctx.db, who(req).orgId, { status, q }, limit, offset), limit, offset);
    },
  );
  app.post(
    '/api/fundraising/campaigns',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a campaign',
        description: `Starts active. The goal is in \`currency\` (default: the organization's). ${RAISED}`,
        body: CampaignCreate,
        response: { 201: Campaign },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await service.createCampaign(ctx.db, org, req.body, actor));
    },
  );
  app.get(
    '/api/fundraising/campaigns/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a campaign', description: RAISED, params: IdParam, response: { 200: Campaign } },
    },
    async (req) => service.getCampaign(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/fundraising/campaigns/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a campaign',
        description:
          'Only sent fields change; an empty description clears it; custom_fields replaces the whole object. The currency cannot ' +
          'change (money is already counted in it). A closed campaign may still be edited.',
        params: IdParam,
        body: CampaignUpdate,
        response: { 200: Campaign },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateCampaign(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.post(
    '/api/fundraising/campaigns/:id/close',
    {
      config: write,
      schema: {
        tags,
        summary: 'Close a campaign',
        description:
          'Answers 200 with the campaign. Refused (422) while one of its auctions is open. Closing a closed campaign changes ' +
          'nothing. Donations may still be recorded against a closed campaign (a late cheque belongs to it); no new auction can ' +
          'be created for it.',
        params: IdParam,
        response: { 200: Campaign },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.closeCampaign(ctx.db, orgId, req.params.id, actor);
    },
  );
  app.get(
    '/api/fundraising/campaigns/:id/summary',
    {
      config: read,
      schema: {
        tags,
        summary: 'Campaign totals by type, source and currency',
        description:
          `${RAISED} \`by_type\` and \`by_source\` split the same ledger entries per currency. \`auctions\` lists the ` +
          `campaign's auctions; \`open_high_bids\` is what an open auction would raise if it closed now and is not part of \`raised\`.`,
        params: IdParam,
        response: { 200: CampaignSummary },
      },
    },
    async (req) => service.campaignSummary(ctx.db, who(req).orgId, req.params.id),
  );
}
