import type { paths as PathsA } from '../api/a';
import type { paths as PathsB } from '../api/b';

/** The JSON body of an operation's success answer (200 or 201), as the generated API types describe it. */
type Json<Op> = Op extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer J } } }
    ? J
    : R extends { 201: { content: { 'application/json': infer J } } }
      ? J
      : never
  : never;
/** A Family A (/api/v1) answer: `OkA<'/animals/{id}'>` is what GET /api/v1/animals/{id} answers. */
export type OkA<P extends keyof PathsA, M extends keyof PathsA[P] = 'get' & keyof PathsA[P]> = Json<PathsA[P][M]>;
/** A Family B (/api/<area>) answer: `OkB<'/api/animals/{id}/details'>`. */
export type OkB<P extends keyof PathsB, M extends keyof PathsB[P] = 'get' & keyof PathsB[P]> = Json<PathsB[P][M]>;
