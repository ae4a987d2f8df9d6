import { apiB, ok } from '../api';
import type { BodyB } from '../queries/types';
import type { Level } from '../session';

/**
 * Where each kind of record's custom fields are defined: the area the records belong to, whose grants the screen
 * checks (read to list, admin to define or change), and that area's route.
 */
export const FIELD_PLACES = [
  { value: 'animal', label: 'Animals', area: 'animals', path: '/api/animals/custom-fields' },
  { value: 'location_unit', label: 'Kennels and rooms', area: 'animals', path: '/api/animals/custom-fields' },
  { value: 'adoption_application', label: 'Adoption applications', area: 'animals', path: '/api/animals/custom-fields' },
  { value: 'person', label: 'People', area: 'people', path: '/api/people/custom-fields' },
  { value: 'shift_schedule', label: 'Shift schedules', area: 'shifts', path: '/api/shifts/custom-fields' },
  { value: 'campaign', label: 'Fundraising campaigns', area: 'fundraising', path: '/api/fundraising/custom-fields' },
] as const;
export type FieldEntity = (typeof FIELD_PLACES)[number]['value'];
type Path = (typeof FIELD_PLACES)[number]['path'];
export const placeOf = (entity: string) => FIELD_PLACES.find((p) => p.value === entity) ?? FIELD_PLACES[0];
export const entityLabel = (entity: string) => FIELD_PLACES.find((p) => p.value === entity)?.label ?? entity;
/** The distinct routes, each once with its area. */
export const FIELD_ROUTES = [...new Map(FIELD_PLACES.map((p) => [p.path, { path: p.path, area: p.area }])).values()];
/** The kinds of record whose fields `grants` allow at `level`. */
export function placesAllowed(can: (area: string, level: Level) => boolean, level: Level) {
  return FIELD_PLACES.filter((p) => can(p.area, level));
}

// Every area's route has the same shape as the Animals one (only the entity types differ): the calls below are typed
// by the Animals route and sent to the entity's own route.
type A = '/api/animals/custom-fields';
type Body = {
  entity_type: 'animal';
  field_key: string;
  field_label: string;
  field_type: BodyB<A, 'post'>['field_type'];
  required?: boolean;
  options?: string[];
};
// The one place the app asserts types: each area's route is typed as the Animals one (the same shape), and its
// entity type as 'animal'. Typing each route apart would repeat every call once per area.
/* eslint-disable @typescript-eslint/consistent-type-assertions -- see above */
export const fieldsApi = {
  list: (path: Path, include_retired: boolean) => ok(apiB.GET(path as A, { params: { query: { include_retired } } })),
  create: (entity: string, body: Omit<Body, 'entity_type'>) =>
    ok(apiB.POST(placeOf(entity).path as A, { body: { ...body, entity_type: entity as 'animal' } })),
  patch: (entity: string, id: string, body: { field_label?: string; options?: string[]; required?: boolean }) =>
    ok(apiB.PATCH(`${placeOf(entity).path}/{id}` as `${A}/{id}`, { params: { path: { id } }, body })),
  retire: (entity: string, id: string) =>
    ok(apiB.POST(`${placeOf(entity).path}/{id}/retire` as `${A}/{id}/retire`, { params: { path: { id } } })),
  restore: (entity: string, id: string) =>
    ok(apiB.POST(`${placeOf(entity).path}/{id}/restore` as `${A}/{id}/restore`, { params: { path: { id } } })),
  order: (entity: string, field_ids: string[]) =>
    ok(apiB.PUT(`${placeOf(entity).path}/order` as `${A}/order`, { body: { entity_type: entity as 'animal', field_ids } })),
};
/* eslint-enable @typescript-eslint/consistent-type-assertions */
