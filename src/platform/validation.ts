import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TSchema, Static } from '@sinclair/typebox';
import { addFormats as addArkFormats } from './formats.ts';
import { fromValidation } from './errors.ts';

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
    // Infinity and NaN are not numbers a request can mean (`?offset=1e309` coerces to Infinity).
    strictNumbers: true,
  });
  addFormats.default(ajv);
  // PostgreSQL has no year 0: `0000-01-01` is not a date it can store.
  const date = ajv.formats.date as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  const dateTime = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat('date', { type: 'string', validate: (v: string) => !v.startsWith('0000') && date.validate(v), compare: date.compare });
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (v: string) => !v.startsWith('0000') && dateTime.validate(v),
    compare: dateTime.compare,
  });
  addArkFormats(ajv);
  return ajv;
}

// Query strings and path params are text and may be coerced ("25" → 25, one value → array);
// JSON bodies are typed by the sender, so a string where a number belongs is refused.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

/** A schema compiler that compiles on the first call of the function it returns (see BuildOptions.lazySchemas). */
export function lazy(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let fn: ReturnType<FastifySchemaCompiler<unknown>> | null = null;
    // Fastify reads a failed validation's `errors` from the function it was given.
    const wrapper = ((data: unknown) => {
      fn ??= compile(route);
      const result = fn(data);
      (wrapper as { errors?: unknown }).errors = (fn as { errors?: unknown }).errors;
      return result;
    }) as ReturnType<FastifySchemaCompiler<unknown>>;
    return wrapper;
  };
}

type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: unknown) => (data: unknown) => string;
const defaultSerializers = SerializerSelector() as unknown as SerializerFactory;
/** Fastify's own response serializer compiler, compiling each route's serializer on its first response. */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultSerializers(externalSchemas, options);
  return (route) => {
    let fn: ((data: unknown) => string) | null = null;
    return (data) => (fn ??= compile(route))(data);
  };
};

/** For validating values outside a route (custom fields, imports): body rules. */
export { bodyAjv };

const checkers = new WeakMap<TSchema, ReturnType<typeof bodyAjv.compile>>();
/**
 * Checks a value outside a route (the command line, a service called by both) against the same
 * schema a route would use, with the same errors: missing fields 400, anything else 422.
 */
export function check<T extends TSchema>(schema: T, value: unknown): Static<T> {
  let validate = checkers.get(schema);
  if (!validate) checkers.set(schema, (validate = bodyAjv.compile(schema)));
  if (!validate(value)) throw fromValidation(validate.errors ?? [], 'body');
  return value;
}
