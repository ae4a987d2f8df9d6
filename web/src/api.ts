import createClient, { type Middleware } from 'openapi-fetch';
import type { paths as PathsA } from './api/a';
import type { paths as PathsB } from './api/b';

/** Sent to sign-in when any answer says the session has ended. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(fn: () => void) {
  onSignedOut = fn;
}
const session: Middleware = {
  async onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/api/session')) onSignedOut();
    return response;
  },
};

/** Family A (/api/v1: animals, people, donations) and Family B (/api/<area>); the session cookie goes along. */
export const apiA = createClient<PathsA>({ baseUrl: '/api/v1', credentials: 'same-origin' });
export const apiB = createClient<PathsB>({ baseUrl: '', credentials: 'same-origin' });
apiA.use(session);
apiB.use(session);

/** An API error as the app shows it: the sentence, and each field's messages to show next to that field. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}
/** A member of a JSON object in an answer, or undefined when the answer is not an object. */
function member(o: unknown, key: string): unknown {
  if (typeof o !== 'object' || o === null) return undefined;
  const v: unknown = Reflect.get(o, key);
  return v;
}
/** Each field's messages in an error answer (`fields`: field → messages), keeping only the text ones. */
const fieldsOf = (o: unknown): Record<string, string[]> =>
  Object.fromEntries(entriesOf(o).map(([k, v]) => [k, Array.isArray(v) ? v.filter((m: unknown) => typeof m === 'string') : []]));
/**
 * Throws the ApiError for a refused answer: Family B says `{ error: "sentence", fields? }`, Family A
 * `{ error: { message, fields } }`; anything else (no body, a proxy's page) gets a sentence with the status.
 */
export function fail(error: unknown, response: Pick<Response, 'status'>): never {
  const e = member(error, 'error');
  if (typeof e === 'string') throw new ApiError(e, response.status, fieldsOf(member(error, 'fields')));
  const message = member(e, 'message');
  throw new ApiError(
    typeof message === 'string' ? message : `The request failed (${response.status}).`,
    response.status,
    fieldsOf(member(e, 'fields')),
  );
}
export type Answer = { data?: unknown; error?: unknown; response: Response };
/** openapi-fetch's answer union without its error side: what a 2xx answer is. */
export type Success<R> = Exclude<R, { data?: never }>;
/** The 2xx side of openapi-fetch's answer union: no error and an ok status (its body is the operation's). */
export function succeeded<R extends Answer>(r: R): r is Success<R> {
  return r.error === undefined && r.response.ok;
}
/** Unwraps an openapi-fetch answer: the data, or an ApiError. */
export async function ok<R extends Answer>(p: Promise<R>): Promise<Success<R>['data']> {
  const r = await p;
  if (!succeeded(r)) fail(r.error, r.response);
  return r.data;
}
/**
 * The message for one field: Family A names fields; a Family B sentence starts with the field it is
 * about ("email is already a member…"), so it is shown next to that field.
 */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const named = err.fields[field]?.join('; ');
  if (named) return named;
  return err.message.startsWith(`${field} `) ? err.message : undefined;
}
/** The sentence for the form as a whole, when no field shows it. */
export function formError(err: unknown, fields: string[]): string | undefined {
  if (!err) return undefined;
  if (fields.some((f) => fieldError(err, f))) return undefined;
  return err instanceof Error ? err.message : typeof err === 'string' ? err : 'Something went wrong.';
}
/**
 * A text member of a free-form JSON object in an answer (such as a message's `payload_metadata`, which the schema
 * leaves open), or undefined when it is missing or not text.
 */
export function textIn(o: unknown, key: string): string | undefined {
  if (typeof o !== 'object' || o === null) return undefined;
  const v: unknown = Reflect.get(o, key);
  return typeof v === 'string' ? v : undefined;
}
/** The members of a free-form JSON object in an answer (such as a history entry's `detail`), or none. */
export function entriesOf(o: unknown): [string, unknown][] {
  if (typeof o !== 'object' || o === null) return [];
  return Object.keys(o).map((k): [string, unknown] => [k, Reflect.get(o, k)]);
}
