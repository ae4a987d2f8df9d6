import type { FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { formatOf, sendTable, type Table } from '../formats.ts';

/** Answers the JSON body, or the same report as a file in the asked format. */
export async function answer<T>(req: FastifyRequest, reply: FastifyReply, body: T, table: () => Table, filename: string) {
  const f = formatOf(req);
  if (f === 'json') return reply.send(body);
  return sendTable(reply, f, table(), filename);
}

/** Today in the organization's time zone, as an ISO date. */
export const today = (tz: string) => DateTime.now().setZone(tz).toISODate() ?? new Date().toISOString().slice(0, 10);
