import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
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
