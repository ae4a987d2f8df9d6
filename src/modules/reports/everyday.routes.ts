import { DateTime } from 'luxon';
import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { pageB } from '../../platform/pagination.ts';
import { FORMAT_SENTENCE, formatOf, reportResponse, sendTable } from './formats.ts';
import { answer } from './routes.ts';
import { needsFor } from './list.ts';
import * as ev from './everyday.ts';
import { checkRange } from './outcomes.ts';
import {
  AdoptionsReport,
  DeliveryReport,
  DonationsReport,
  FosterHomesReport,
  HoursReport,
  MedicalDueQuery,
  MedicalDueReport,
  OnDateQuery,
  RangeQuery,
  VaccinationsQuery,
  VaccinationsReport,
} from './schemas.ts';

const today = (tz: string) => DateTime.now().setZone(tz).toISODate() ?? new Date().toISOString().slice(0, 10);

/** Medical, foster, adoptions, donations, volunteer hours, message delivery. */
export function everydayRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];

  app.get(
    '/api/reports/medical-due',
    {
      config: needsFor('medical-due'),
      schema: {
        tags,
        summary: 'Medical items due and overdue, by day, location and species',
        description:
          'Open (not completed) medical due items of animals on file, due on or before `date` + `days`: overdue when due before ' +
          '`date` (default today in the organization’s time zone). Location: In foster when a foster placement covers the day, ' +
          "else the animal's current location." +
          FORMAT_SENTENCE,
        querystring: MedicalDueQuery,
        response: reportResponse(MedicalDueReport, 'the items due'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.medicalDue(ctx.db, org, req.query.date ?? today(org.time_zone), req.query.days ?? 7);
      return answer(req, reply, r, () => ev.medicalDueTable(r, org.name), `medical-due-${r.as_of}`);
    },
  );

  app.get(
    '/api/reports/vaccinations',
    {
      config: needsFor('vaccinations'),
      schema: {
        tags,
        summary: 'Vaccinations given in a range, with lot numbers (for recalls)',
        description:
          "Every vaccine record given from the first day to the last (the organization's time zone), oldest first, optionally of " +
          'one `lot`. JSON pages with `limit`/`offset`; CSV, XLSX and PDF hold the whole range (the CSV streams, read 2,000 ' +
          'records at a time, so a long range is never held in memory).' +
          FORMAT_SENTENCE,
        querystring: VaccinationsQuery,
        response: reportResponse(VaccinationsReport, 'the vaccinations'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const { from, to } = req.query;
      checkRange(from, to);
      const lot = req.query.lot ?? null;
      const f = formatOf(req);
      if (f !== 'json') return sendTable(reply, f, ev.vaccinationsTable(ctx.db, org, from, to, lot), `vaccinations-${from}-${to}`);
      const rows = await ev.vaccinationsPage(ctx.db, org, from, to, lot, null, req.query.limit + 1, req.query.offset);
      return { from, to, time_zone: org.time_zone, ...pageB(rows, req.query.limit, req.query.offset) };
    },
  );

  app.get(
    '/api/reports/foster-homes',
    {
      config: needsFor('foster-homes'),
      schema: {
        tags,
        summary: 'Foster homes with capacity and current animals',
        description:
          'Every foster home with its status and capacity, and the animals whose placement covers `date` (default today). ' +
          '`capacity` at the top adds up the active homes.' +
          FORMAT_SENTENCE,
        querystring: OnDateQuery,
        response: reportResponse(FosterHomesReport, 'the foster homes'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.fosterHomes(ctx.db, org, req.query.date ?? today(org.time_zone));
      return answer(req, reply, r, () => ev.fosterTable(r, org.name), `foster-homes-${r.date}`);
    },
  );

  app.get(
    '/api/reports/adoptions',
    {
      config: needsFor('adoptions'),
      schema: {
        tags,
        summary: 'Adoptions with fees and contracts',
        description:
          'Adoptions finalized in the range (returned ones included: the fee was due), with the fee in integer minor units, its ' +
          'rule, and the contract and when it was signed; totals per currency.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(AdoptionsReport, 'the adoptions'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.adoptionsReport(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.adoptionsTable(r, org.name), `adoptions-${r.from}-${r.to}`);
    },
  );

  app.get(
    '/api/reports/donations',
    {
      config: needsFor('donations'),
      schema: {
        tags,
        summary: 'Donations by month, campaign and type, per currency',
        description:
          'From the donations ledger (deleted gifts left out), by the gift’s date: count and sum in integer minor units per ' +
          'month, campaign, type and currency; totals per currency (currencies are never added together). Needs read on ' +
          'Fundraising too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(DonationsReport, 'the donations'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.donationsReport(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.donationsTable(r, org.name), `donations-${r.from}-${r.to}`);
    },
  );

  app.get(
    '/api/reports/volunteer-hours',
    {
      config: needsFor('volunteer-hours'),
      schema: {
        tags,
        summary: 'Volunteer hours by volunteer and role',
        description:
          'Hours of booked shift windows that start in the range, by volunteer and role; a booking cancelled or marked absent ' +
          '(attended false) counts nothing. Needs read on Shifts too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(HoursReport, 'the hours'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.volunteerHours(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.hoursTable(r, org.name), `volunteer-hours-${r.from}-${r.to}`);
    },
  );

  app.get(
    '/api/reports/message-delivery',
    {
      config: needsFor('message-delivery'),
      schema: {
        tags,
        summary: 'Message delivery (sent, bounced, suppressed) by category',
        description:
          'Outbound messages queued in the range, by category: sent (sent or delivered), bounced, suppressed, failed, and still ' +
          'pending. Needs read on Communications too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(DeliveryReport, 'the delivery counts'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.messageDelivery(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.deliveryTable(r, org.name), `message-delivery-${r.from}-${r.to}`);
    },
  );
}
