import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { requestPath } from './request.ts';
import { FORMATS } from './formats.ts';

/** The closed set of error codes: each code always answers the same HTTP status. */
const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;
type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    status?: number,
    readonly headers?: Record<string, string>,
    /** Further members of a Family B error body (e.g. `merged_into` on a merged person's 404). */
    readonly extra?: Record<string, string>,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code];
  }
}

export const notFound = (what = 'record') => new AppError('NOT_FOUND', `No such ${what}.`);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unsupportedMediaType = (message = 'Send the body as JSON with Content-Type: application/json.') =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);

/** 422 with one or more field messages; the sentence names the first problem. */
export function invalid(fields: FieldErrors, message?: string): AppError {
  return new AppError('VALIDATION_ERROR', message ?? sentenceFor(fields), fields, 422);
}
/** 400 for missing required fields. */
export function missing(fieldNames: string[]): AppError {
  const fields = Object.fromEntries(fieldNames.map((f) => [f, ['is required']]));
  return new AppError('VALIDATION_ERROR', sentenceFor(fields), fields, 400);
}

function sentenceFor(fields: FieldErrors): string {
  const entries = Object.entries(fields);
  const first = entries[0];
  if (!first) return 'The request is not valid.';
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more problem${entries.length > 2 ? 's' : ''})` : '';
  const msg = first[1][0] ?? 'is not valid';
  // "email is already used…" reads as a sentence with the field first; "no role named x" does not.
  const sentence = /^(is|are|must|has|have|does|do|cannot|can|should|may|was|were|needs|takes|refers|names|duplicates)\b/.test(msg)
    ? `${first[0]} ${msg}`
    : /^(no|a|an|the|this|that|these|those|only|there|it|one|at|each|every)\b/.test(msg)
      ? msg.charAt(0).toUpperCase() + msg.slice(1)
      : msg;
  return `${sentence.replace(/[.]$/, '')}${more}.`;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldName(instancePath: string, context: string | undefined, extra?: string): string {
  // Fields are named as the family names them: `status`, not `status.0` for one of several values.
  const parts = instancePath
    .split('/')
    .filter((p) => p && !/^\d+$/.test(p))
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra) parts.push(extra);
  const name = parts.join('.');
  return name || (context === 'body' ? 'body' : (context ?? 'request'));
}

const FORMAT_WORDS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'an ISO 8601 date-time',
  uri: 'an absolute URL',
};

function messageFor(e: AjvError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not accepted';
    case 'type':
      return `must be ${String(p.type).replace(',', ' or ')}`;
    case 'format':
      return `must be ${FORMAT_WORDS[String(p.format)] ?? FORMATS[String(p.format)]?.words ?? `a valid ${String(p.format)}`}`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${String(p.allowedValue)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'uniqueItems':
      return 'must not repeat items';
    case 'pattern':
      return 'has the wrong format';
    default:
      return e.message ?? 'is not valid';
  }
}

/** Turns Fastify/Ajv validation output into our error: missing fields 400, anything else 422. */
export function fromValidation(errors: AjvError[], context: string | undefined): AppError {
  if (context === 'body' && errors.some((e) => e.instancePath === '' && e.keyword === 'type')) {
    return badRequest('The request body must be a JSON object.');
  }
  const fields: FieldErrors = {};
  let anyMissing = false;
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const extra =
      e.keyword === 'required'
        ? String(e.params.missingProperty)
        : e.keyword === 'additionalProperties'
          ? String(e.params.additionalProperty)
          : undefined;
    if (e.keyword === 'required') anyMissing = true;
    const name = fieldName(e.instancePath, context, extra);
    // A field named like an Object method (`toString`) is a field like any other, not the inherited method.
    let list = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!list) {
      list = [];
      fields[name] = list;
    }
    const msg = messageFor(e);
    if (!list.includes(msg)) list.push(msg);
  }
  if (anyMissing) {
    const missingOnly = Object.fromEntries(Object.entries(fields).filter(([, m]) => m.includes('is required')));
    return new AppError('VALIDATION_ERROR', sentenceFor(missingOnly), fields, 400);
  }
  return invalid(fields);
}

export function isFamilyA(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?');
}

/** Family A names fields in camelCase; only the record's own field is renamed (`custom_fields.coat_color` → `customFields.coat_color`). */
function camel(name: string): string {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  return head.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) + (dot < 0 ? '' : name.slice(dot));
}

/** Seconds a client is asked to wait (`Retry-After`) when the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Node's socket errors that mean the server could not be reached or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
/** What the pg client says when its connection is gone or could not be made in time. */
const PG_CONNECTION_MESSAGE = new RegExp(
  '^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|' +
    'Client was closed and is not queryable|Query read timeout)',
);

/**
 * The database (or another service a request needs) cannot be reached right now: refused or broken connections,
 * PostgreSQL shutting down or starting up (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now),
 * connection exceptions (class 08), too many connections (53300), and the pg client's own words for a lost
 * connection. Answered 503 with Retry-After: nothing was done, and trying again shortly is right.
 */
export function isUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && PG_CONNECTION_MESSAGE.test(message);
}

const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable (its database cannot be reached); nothing was done. Try again shortly.';
export const unavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE, undefined, 503, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });

/** A write found no room (the disk or the quota is full): 507, nothing was stored. */
export const insufficientStorage = () =>
  new AppError('INSUFFICIENT_STORAGE', 'There is no room left to store this; nothing was stored. Try again once space is freed.');

/** ENOSPC (no space left on the device) or EDQUOT (quota exceeded). */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Converts anything thrown into an AppError without leaking internals. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) return fromValidation(fe.validation, fe.validationContext);
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('The request body is not valid JSON.');
    default:
      break;
  }
  if (err instanceof SyntaxError) return badRequest('The request body is not valid JSON.');
  if (isUnavailable(err)) return unavailable();
  if (isStorageFull(err)) return insufficientStorage();
  // A safety net under validation: what the database refuses as data is bad input, never a 500.
  const pgCode = (err as { code?: unknown })?.code;
  if (typeof pgCode === 'string' && /^[0-9A-Z]{5}$/.test(pgCode)) {
    if (pgCode.startsWith('22'))
      return invalid({}, 'A value in the request cannot be stored (a NUL character, or a number or date out of range).');
    if (pgCode === '23505') return invalid({}, 'That duplicates something that must be unique.');
    if (pgCode === '23503') return invalid({}, 'That refers to a record that does not exist.');
    if (pgCode === '23514' || pgCode === '23502') return invalid({}, 'A value in the request is not allowed.');
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
  if (status >= 400 && status < 500) return badRequest('The request could not be read.');
  return new AppError('INTERNAL', 'Something went wrong on our side; it has been logged.');
}

export function renderError(request: FastifyRequest, reply: FastifyReply, e: AppError): FastifyReply {
  if (e.headers) for (const [k, v] of Object.entries(e.headers)) void reply.header(k, v);
  void reply.code(e.status).type('application/json; charset=utf-8');
  if (isFamilyA(requestPath(request))) {
    const body: { code: string; message: string; fields?: FieldErrors } = { code: e.code, message: e.message };
    if (e.fields) body.fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [camel(k), v]));
    else if (e.status === 422) body.fields = {};
    return reply.send(JSON.stringify({ error: body }));
  }
  return reply.send(JSON.stringify({ error: e.message, ...e.extra }));
}
