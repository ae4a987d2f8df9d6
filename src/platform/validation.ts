import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  });
  addFormats.default(ajv);
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
