import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import type * as service from '../service.ts';
import * as foster from '../foster.service.ts';
import * as views from '../views.ts';
import { type Form, idOf, type IdP, type PortalPages } from '../pages.ts';

/** `/portal/animals/:id`: a foster's animal in care, and what they send about it (updates, weights, medications, requests). */
export function portalAnimalRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
  async function animalPage(
    reply: FastifyReply,
    c: service.Caller,
    animalId: string,
    notice: { error?: string; done?: string; status?: number },
  ) {
    const p = await foster.fosterAnimalPage(ctx.db, c, animalId);
    return page(reply, c.org, p.animal.name, views.fosterAnimal(c.org, p, notice), { caller: c, status: notice.status });
  }
  /** Runs a foster's action; a refused one shows the animal's page again with the reason. */
  const act = (run: (req: FastifyRequest, c: service.Caller) => Promise<string>) =>
    signedIn<IdP>(async (req, reply, c) => {
      const id = idOf(req);
      let done: string;
      try {
        done = await run(req, c);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.status === 404)
          return page(reply, c.org, 'Not found', views.message('Not found', 'No animal in your care has this address.'), {
            caller: c,
            status: 404,
          });
        return animalPage(reply, c, id, { error: views.errorText(err), status: err.status });
      }
      return reply.redirect(`/portal/animals/${encodeURIComponent(id)}?done=${done}`, 303);
    });

  app.get(
    '/portal/animals/:id',
    hidden,
    signedIn<IdP>(async (req, reply, c) => {
      try {
        return await animalPage(reply, c, idOf(req), { done: (req.query as Record<string, string>).done });
      } catch (err) {
        if (err instanceof AppError && err.status === 404)
          return page(reply, c.org, 'Not found', views.message('Not found', 'No animal in your care has this address.'), {
            caller: c,
            status: 404,
          });
        throw err;
      }
    }),
  );
  app.post(
    '/portal/animals/:id/updates',
    hidden,
    act(async (req, c) => {
      if (!req.isMultipart()) throw new AppError('VALIDATION_ERROR', 'Send the update from the form.', { body: ['is required'] }, 422);
      let body = '';
      const photos: { data: Buffer; filename: string | null }[] = [];
      await foster.inMyCare(ctx.db, c, idOf(req));
      try {
        for await (const part of req.parts({
          limits: { fileSize: foster.MAX_PHOTO_BYTES, files: foster.MAX_PHOTOS, fields: 5, fieldSize: 6000 },
        })) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (data.length) photos.push({ data, filename: part.filename || null });
          } else if (part.fieldname === 'body') body = typeof part.value === 'string' ? part.value : '';
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('VALIDATION_ERROR', 'A photo is larger than 15 MiB.', { photo: ['is larger than 15 MiB'] }, 422);
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
          throw new AppError('VALIDATION_ERROR', `At most ${foster.MAX_PHOTOS} photos at once.`, { photos: ['too many'] }, 422);
        throw err;
      }
      await foster.postUpdate(ctx.db, ctx.config, c, idOf(req), body, photos);
      return 'update';
    }),
  );
  app.post(
    '/portal/animals/:id/weights',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const w = Number(String(b.weight ?? '').replace(',', '.'));
      if (!Number.isFinite(w) || w <= 0 || w > 10000)
        throw new AppError('VALIDATION_ERROR', 'The weight must be a number above 0.', { weight: ['must be a number above 0'] }, 422);
      const unit = b.unit === 'lb' ? 'lb' : 'kg';
      await foster.recordWeight(ctx.db, c, idOf(req), Math.round(w * 1000) / 1000, unit);
      return 'weight';
    }),
  );
  app.post(
    '/portal/animals/:id/medications',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const name = String(b.name ?? '').trim();
      if (!name || name.length > 100)
        throw new AppError('VALIDATION_ERROR', 'Say which medication was given (at most 100 characters).', { name: ['is required'] }, 422);
      await foster.reportMedication(ctx.db, c, idOf(req), {
        name,
        dose:
          String(b.dose ?? '')
            .trim()
            .slice(0, 100) || null,
        given_at: new Date(),
        notes:
          String(b.notes ?? '')
            .trim()
            .slice(0, 2000) || null,
      });
      return 'medication';
    }),
  );
  app.post(
    '/portal/animals/:id/requests',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const kind = b.kind === 'vet_visit' ? 'vet_visit' : 'supplies';
      await foster.requestHelp(ctx.db, c, idOf(req), kind, String(b.details ?? ''));
      return 'request';
    }),
  );
}
