import type { FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import { AppError, badRequest, invalid, missing, type FieldErrors } from '../../platform/errors.ts';
import { check } from '../../platform/validation.ts';
import type { Static } from '../../platform/schema.ts';

/** The file of an upload, as the client sent it (checked afterwards by decoding), and its text fields. */
export interface Upload<F> {
  data: Buffer;
  filename: string | null;
  form: F;
}

/** Room for the form around the file (boundaries, part headers, text fields). */
const FORM_OVERHEAD = 64 * 1024;

export function mib(bytes: number): string {
  const n = bytes / (1024 * 1024);
  return `${Number.isInteger(n) ? n : n.toFixed(1)} MiB`;
}

export function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The ${what} is larger than ${mib(maxBytes)}, the most Ark accepts.`);
}

/** Keeps the name a person gave the file, minus any folder part and control characters. */
function cleanFilename(name: string | undefined): string | null {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return base ? base : null;
}

/**
 * Reads a multipart/form-data upload: exactly one file in the part named `file` (at most `maxBytes`;
 * beyond, 413 before more is read) and the text fields `form` allows (checked like a JSON body).
 */
export async function readUpload<T extends TObject>(
  req: FastifyRequest,
  what: string,
  maxBytes: number,
  form: T,
): Promise<Upload<Static<T>>> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes + FORM_OVERHEAD) throw tooLarge(what, maxBytes);
  if (!req.isMultipart()) throw missing(['file']);
  const fields: Record<string, string> = {};
  const problems: FieldErrors = {};
  let data: Buffer | null = null;
  let filename: string | null = null;
  try {
    const parts = req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 2000, parts: 12, headerPairs: 100 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          problems[part.fieldname] = ['is not accepted: send the file in the part named file'];
          part.file.resume();
          continue;
        }
        data = await part.toBuffer();
        filename = cleanFilename(part.filename);
      } else {
        if (part.valueTruncated) problems[part.fieldname] = ['is too long'];
        else fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(what, maxBytes);
    if (code === 'FST_FILES_LIMIT') throw invalid({ file: ['must be one file: send one file per request'] });
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw invalid({ body: ['has too many form fields'] });
    if (code === 'FST_PROTO_VIOLATION') throw invalid({ body: ['names a form field that is not accepted'] });
    throw badRequest('The multipart/form-data body could not be read.');
  }
  for (const [k, v] of Object.entries(fields)) if (v.includes('\u0000')) problems[k] = ['must not contain a NUL character'];
  if (Object.keys(problems).length) throw invalid(problems);
  if (!data) throw missing(['file']);
  if (data.length === 0) throw invalid({ file: ['is empty'] });
  return { data, filename, form: check(form, fields) };
}
