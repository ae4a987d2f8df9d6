import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest, invalid, isFamilyA, renderError, toAppError } from '../errors.ts';
import { pathOfTarget } from '../request.ts';
import { ErrorA, ErrorB } from '../schema.ts';
import type { RateResult } from '../rate-limit.ts';
import { rateHeaders, tooMany } from './rate-limit.ts';

type CountAddress = (ip: string | undefined) => Promise<RateResult>;

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node cannot even parse (a URL or headers over 16 KiB, a malformed request line) are
 * answered on the socket, still in the family's shape with the usual headers (a Fastify option).
 */
export const clientErrorHandler =
  (countAddress: CountAddress) =>
  (error: Error, socket: Socket): void => {
    const err = error as Error & { code?: string; rawPacket?: Buffer };
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const line = err.rawPacket?.toString('latin1', 0, 512) ?? '';
    const target = /^[A-Z]+ (\S+)/.exec(line)?.[1] ?? '';
    const message =
      status === 431
        ? 'The request URL or headers are larger than 16 KiB.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request could not be read.';
    const code = status === 431 ? 'REQUEST_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
    const body = JSON.stringify(isFamilyA(pathOfTarget(target)) ? { error: { code, message } } : { error: message });
    const write = (extra: Record<string, string | number>) => {
      if (socket.destroyed || !socket.writable) return;
      const headers: Record<string, string | number> = {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
        'X-Request-Id': randomUUID(),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
        ...extra,
      };
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n${head}\r\n\r\n${body}`);
    };
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    countAddress(socket.remoteAddress).then(
      (rate) => write(rateHeaders(rate)),
      () => write({}),
    );
  };

/**
 * Errors the router raises before any hook (bad URL encoding, an overlong path segment) get the
 * family's body too; an id nobody could have is simply not found (a Fastify option).
 */
export const frameworkErrors =
  (countAddress: CountAddress) =>
  (err: Error, req: FastifyRequest, reply: FastifyReply): void => {
    const code = (err as { code?: string }).code;
    const e =
      code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('NOT_FOUND', 'No such record.')
        : new AppError('BAD_REQUEST', 'The request URL could not be read.');
    void reply.header('X-Request-Id', req.id);
    countAddress(req.ip).then(
      (rate) => {
        void reply.headers(rateHeaders(rate));
        void renderError(req, reply, rate.allowed ? e : tooMany(rate));
      },
      () => void renderError(req, reply, e),
    );
  };

/**
 * Errors: every failure answers in its family's shape (Family A `{error:{code,message,fields}}`,
 * Family B `{"error": "..."}`), unknown routes are 404 in that shape, and JSON bodies must be valid
 * UTF-8 holding an object (a body of null, an array or a bare value is a 400).
 */
export const errorsPlugin = fp(
  async (app) => {
    app.addSchema(ErrorA);
    app.addSchema(ErrorB);

    app.removeContentTypeParser('application/json');
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer);
      } catch {
        return done(badRequest('The request body is not valid UTF-8.'), undefined);
      }
      void parseJson(req, text, (err, value) => {
        if (err) return done(err, undefined);
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          return done(badRequest('The request body must be a JSON object.'), undefined);
        done(null, value);
      });
    });

    app.setErrorHandler(async (err, req, reply) => {
      let e = toAppError(err);
      const alsoCheck = req.routeOptions.config?.alsoCheck;
      if (alsoCheck && e.status === 422 && Array.isArray((err as { validation?: unknown }).validation) && req.org) {
        const more = await Promise.resolve(alsoCheck(req)).catch(() => ({}));
        const fields = { ...(e.fields ?? {}) };
        for (const [k, v] of Object.entries(more)) fields[k] = [...(fields[k] ?? []), ...v.filter((m) => !(fields[k] ?? []).includes(m))];
        e = invalid(fields);
      }
      if (e.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err: { message: (err as Error).message } }, 'request failed: unavailable');
      else if (e.status >= 500) req.log.error({ err }, 'request failed');
      return renderError(req, reply, e);
    });
    app.setNotFoundHandler((req, reply) =>
      renderError(req, reply, new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${pathOfTarget(req.url)}.`)),
    );
  },
  { name: 'ark-errors' },
);
