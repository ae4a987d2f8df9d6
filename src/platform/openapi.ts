import type { FastifyInstance } from 'fastify';

const FAMILY_B_VERSION = '2026-11-22';

/** What the areas add to each family's introduction (a paragraph each), from `Module.describe`. */
export interface DescriptionText {
  a: string[];
  b: string[];
}

type Doc = { paths?: Record<string, unknown>; components?: unknown; [k: string]: unknown };

/** Splits the one generated description into Family A (/api/v1) and Family B (/api/...). */
export function buildDescriptions(app: FastifyInstance, text: DescriptionText = { a: [], b: [] }): { a: Doc; b: Doc } {
  const full = app.swagger() as Doc;
  const a: Record<string, unknown> = {};
  const b: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(full.paths ?? {})) {
    if (path.startsWith('/api/v1/')) a[path.slice('/api/v1'.length)] = item;
    else if (path.startsWith('/api/')) b[path] = item;
  }
  const security = [{ bearer: [] }];
  const securitySchemes = {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key: `ark_live_` followed by 40 base62 characters, made under Settings → API keys.',
    },
  };
  const components = (full.components ?? {}) as Record<string, unknown>;
  return {
    a: {
      openapi: '3.1.0',
      info: {
        title: 'Ark API — Family A',
        version: 'v1',
        description: [FAMILY_A_TEXT, ...text.a].join('\n\n'),
      },
      servers: [{ url: '/api/v1', description: 'at your organization address, e.g. https://demo.localhost:3000/api/v1' }],
      security,
      paths: a,
      components: { ...components, securitySchemes },
    },
    b: {
      openapi: '3.1.0',
      info: { title: 'Ark API — Family B', version: FAMILY_B_VERSION, description: [FAMILY_B_TEXT, ...text.b].join('\n\n') },
      servers: [{ url: '/', description: 'your organization address, e.g. https://demo.localhost:3000' }],
      security,
      paths: b,
      components: { ...components, securitySchemes },
    },
  };
}

const COMMON =
  `
**Organization.** Every request goes to one organization's live records, chosen by the host: ` +
  `\`{organization}.{ARK_BASE_DOMAIN}\`. A key works only at its own organization's address; elsewhere it answers 401.

**Authentication.** \`Authorization: Bearer ark_live_…\`. Missing, unknown, revoked or other-organization key: 401. Role lacks ` +
  `the level on the area: 403. A record that does not exist, was deleted, or belongs to another organization: 404.

**Limits.** Rate limit per key (default 600 requests a minute); requests without a valid key are counted per client address, ` +
  `separately (default 300 a minute); every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; ` +
  `429 carries \`Retry-After\`. Bodies over 1 MiB answer 413. Every response carries \`X-Request-Id\`.

**Idempotency.** Creates accept an \`Idempotency-Key\` header (1 to 255 printable ASCII characters): a retry with the same key ` +
  `and the same request answers the first answer again (same status and body, header \`Idempotent-Replayed: true\`) and creates ` +
  `nothing; the same key with another request answers 422; a twin sent while the first is still running waits for it, then ` +
  `replays. The key is stored in the same transaction as the records, is scoped to the API key and route, and expires after 24 ` +
  `hours; a request that fails does not use up its key.

**Errors.** 400 body not valid JSON (or not UTF-8), not an object, or a required field missing; 415 a body that is not JSON ` +
  `(\`Content-Type: application/json\`); 422 a field of the wrong type, format or value, an unknown or not-accepted field, an ` +
  `unknown query parameter, a query parameter out of range, a string holding a NUL character, or a duplicate of something unique. ` +
  `One 422 names every invalid field it finds.`;

const FAMILY_A_TEXT =
  `Versioned API: camelCase fields; lists answer \`{ data, meta: { total, page, perPage, totalPages } }\`; a ` +
  `single record answers the record itself (no wrapper).
${COMMON}
Error body: \`{ error: { code, message, fields } }\`; \`fields\` maps each field to messages and is present on 400 validation and 422.

**Deletion.** DELETE answers 204 without a body and needs admin on the record's area (each operation states the permission it ` +
  `needs). A deleted record answers 404 from then on but is kept for the record.`;

const FAMILY_B_TEXT =
  `Area API: snake_case fields under \`/api/<area>/…\`; lists answer \`{ results, limit, offset, has_more ` +
  `}\`. Records are created with 201 unless an endpoint says otherwise.
${COMMON}
Error body: \`{ "error": "<one sentence for a person>" }\`.`;
