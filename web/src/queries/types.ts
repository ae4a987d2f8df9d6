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
/** A Family B GET's query parameters: `QueryB<'/api/tasks'>` is what GET /api/tasks can be narrowed by. */
export type QueryB<P extends keyof PathsB> = PathsB[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** The same without paging (`limit`, `offset`): what a hook's filters are. */
export type FiltersB<P extends keyof PathsB> = Omit<QueryB<P>, 'limit' | 'offset'>;
/** A Family B request body: `BodyB<'/api/tasks', 'post'>`. */
export type BodyB<P extends keyof PathsB, M extends keyof PathsB[P]> = PathsB[P][M] extends {
  requestBody?: { content: { 'application/json': infer J } };
}
  ? J
  : never;

/** One of `options` equal to `v`, typed as the options are, or undefined: narrows a control's string to a schema's union. */
export const oneOf = <T extends string>(options: readonly T[], v: string | null | undefined): T | undefined => options.find((o) => o === v);
