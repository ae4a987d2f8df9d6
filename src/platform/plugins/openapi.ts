import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { isFamilyA } from '../errors.ts';
import { AREA_LABEL, type Area, type Level } from '../permissions.ts';
import { buildDescriptions, type DescriptionText } from '../openapi.ts';

const ERROR_MEANING: Record<string, string> = {
  '400': 'Body not JSON or not an object, or a required field missing',
  '401': 'Key missing, unknown, revoked, or of another organization',
  '403': "The key's role lacks the level this needs on the area",
  '404': 'No such record, or not visible to this key; or no organization at this address',
  '422': 'A field or query parameter of the wrong type, format or value; an unknown or not-accepted field; a duplicate',
  '413': 'Request body larger than 1 MiB',
  '415': 'A body that is not JSON (send Content-Type: application/json)',
  '429': 'Rate limit exceeded; retry after Retry-After seconds',
  '503': 'The database, or a provider this needs, is not configured or not reachable; nothing was done; retry after Retry-After seconds',
};

/** What an operation needs, as the description states it: the same `config.permission` the auth plugin enforces. */
export interface PermissionDoc {
  area: Area;
  level: Level;
  also: { area: Area; level: Level }[];
}

/** The sentence the description gains: "Needs write on Animals." (and each further grant). */
export function permissionSentence(p: PermissionDoc): string {
  return `Needs ${[p, ...p.also].map((n) => `${n.level} on ${AREA_LABEL[n.area]}`).join(' and ')}.`;
}

/** Documents what each /api route needs and the errors it can answer, from the route's own config. */
function describeRoute(route: RouteOptions): void {
  const url = route.url;
  if (!url.startsWith('/api/')) return;
  const cfg = route.config ?? {};
  const schema = (route.schema ??= {}) as { response?: Record<string, unknown>; description?: unknown; [x: `x-${string}`]: unknown };
  if (cfg.permission) {
    const { area, level, also } = cfg.permission;
    const doc: PermissionDoc = { area, level, also: (also ?? []).map((n) => ({ area: n.area, level: n.level })) };
    schema['x-ark-permission'] = doc;
    const sentence = permissionSentence(doc);
    const text = typeof schema.description === 'string' ? schema.description : '';
    if (!text.includes(sentence)) schema.description = text ? `${text}\n\n${sentence}` : sentence;
  }
  if (cfg.public) schema['x-ark-public'] = cfg.public;
  // Staff app routes for a signed-in team member only: no API key works there.
  if (cfg.session) schema['x-ark-session'] = true;
  const ref = isFamilyA(url) ? 'ErrorA#' : 'ErrorB#';
  const response = (schema.response ??= {});
  const codes = cfg.public === true ? ['400', '404', '415', '422', '429'] : ['400', '401', '403', '404', '415', '422', '429'];
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) codes.push('413');
  // Any route answers 503 while the database cannot be reached (with Retry-After); a route whose description says
  // it can answer 503 for its own reason (sending without a provider) says so in its description.
  codes.push('503');
  for (const code of codes) response[code] ??= { $ref: ref, description: ERROR_MEANING[code] };
}

/**
 * OpenAPI: the one generated description, split into Family A (/api/v1/openapi.json) and Family
 * B (/api/openapi.json), and the reference page at /docs. Registered before the modules so every
 * route is seen; `text` is what the areas add to each family's introduction.
 */
export const openapiPlugin = fp<{ text: DescriptionText; apiReference: boolean }>(
  async (app, { text, apiReference }) => {
    app.addHook('onRoute', describeRoute);
    await app.register(swagger, {
      openapi: { openapi: '3.1.0', info: { title: 'Ark', version: 'v1' } },
      refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    });
    let docs: ReturnType<typeof buildDescriptions> | null = null;
    const describe = () => (docs ??= buildDescriptions(app, text));
    app.get('/api/v1/openapi.json', { config: { public: true, noTenant: true }, schema: { hide: true } }, async () => describe().a);
    app.get('/api/openapi.json', { config: { public: true, noTenant: true }, schema: { hide: true } }, async () => describe().b);
    if (!apiReference) return;
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    await app.register(scalar, {
      routePrefix: '/docs',
      configuration: {
        title: 'Ark API reference',
        // A records system's reference stays on the machine: no hosted AI, MCP or deploy buttons.
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        showToolbar: 'never',
        sources: [
          { title: 'Family A — /api/v1', url: '/api/v1/openapi.json' },
          { title: 'Family B — /api/<area>', url: '/api/openapi.json' },
        ],
      },
      logLevel: 'silent',
    } as never);
    app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/docs'));
  },
  { name: 'ark-openapi' },
);
