import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum } from '../../../platform/schema.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { KINDS } from '../model.ts';
import { ExternalIdList } from '../schemas.ts';
import { findExternal } from '../repository.ts';

const TAGS = ['Moving to Ark'];

/** /api/moving/external-ids: which Ark record each source id became. */
export function externalIdRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/moving/external-ids',
    {
      config: { permission: { area: 'settings', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: 'Find a record by the id it had before the move',
        description:
          'E.g. `?source=asm3&id=A1234` gives the Ark record that was A1234 in ASM3 (`kind` narrows it to animals, people, ' +
          'stays, medical records, weights, notes or donations); `?ark_id=` gives where an Ark record came from. The id matches ' +
          'exactly as the source wrote it.',
        querystring: Strict({
          source: Type.Optional(Type.String({ maxLength: 32 })),
          id: Type.Optional(Type.String({ maxLength: 500 })),
          kind: Type.Optional(StringEnum(KINDS)),
          ark_id: Type.Optional(Type.String({ maxLength: 64 })),
          ...pageQueryB(100, 25),
        }),
        response: { 200: ExternalIdList },
      },
    },
    async (req) => {
      const { limit, offset, ...f } = req.query;
      return pageB(await findExternal(ctx.db, who(req).orgId, f, limit + 1, offset), limit, offset);
    },
  );
}
