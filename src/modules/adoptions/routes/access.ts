import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { allows } from '../../../platform/permissions.ts';
import { Type } from '../../../platform/schema.ts';
import type { Caller } from '../adoptions.service.ts';

/** The grants the adoption routes ask for: everything here is part of the animals area. */
export const read = { permission: { area: 'animals' as const, level: 'read' as const } };
export const write = { permission: { area: 'animals' as const, level: 'write' as const } };
export const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };

/** A binary answer (PDF, CSV) as the OpenAPI description shows it. */
export const Binary = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: Type.String({ format: 'binary' }) } } },
});

/** Who calls, as the services take it: organization, actor, principal, configuration, and whether the key has admin on animals. */
export function caller(req: FastifyRequest, ctx: AppContext): Caller {
  const { org, actor, principal } = who(req);
  return { org, actor, principal, config: ctx.config, isAdmin: allows(principal.grants, 'animals', 'admin') };
}
