import { apiB, ok } from '../api';
import type { BodyB, OkB } from '../queries/types';
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

// Each area's route has the same shape (only the entity types differ). The calls below name each route literally, so
// every request and answer is typed by its own route; an answer is widened to `FieldDef`, whose entity type is any
// of the six kinds of record.
type A = '/api/animals/custom-fields';
type AnimalDef = OkB<A>['results'][number];
export type FieldDef = Omit<AnimalDef, 'entity_type'> & { entity_type: FieldEntity };
type FieldList = Omit<OkB<A>, 'results'> & { results: FieldDef[] };
type Body = {
  field_key: string;
  field_label: string;
  field_type: BodyB<A, 'post'>['field_type'];
  required?: boolean;
  options?: string[];
};
type Patch = { field_label?: string; options?: string[]; required?: boolean };
const listQuery = (include_retired: boolean) => ({ params: { query: { include_retired } } });
const byId = (id: string) => ({ params: { path: { id } } });

export const fieldsApi = {
  list: async (path: Path, includeRetired: boolean): Promise<FieldList> => {
    switch (path) {
      case '/api/animals/custom-fields':
        return ok(apiB.GET('/api/animals/custom-fields', listQuery(includeRetired)));
      case '/api/people/custom-fields':
        return ok(apiB.GET('/api/people/custom-fields', listQuery(includeRetired)));
      case '/api/shifts/custom-fields':
        return ok(apiB.GET('/api/shifts/custom-fields', listQuery(includeRetired)));
      case '/api/fundraising/custom-fields':
        return ok(apiB.GET('/api/fundraising/custom-fields', listQuery(includeRetired)));
    }
  },
  create: async (entity: string, body: Body): Promise<FieldDef> => {
    const place = placeOf(entity);
    switch (place.value) {
      case 'animal':
      case 'location_unit':
      case 'adoption_application':
        return ok(apiB.POST('/api/animals/custom-fields', { body: { ...body, entity_type: place.value } }));
      case 'person':
        return ok(apiB.POST('/api/people/custom-fields', { body: { ...body, entity_type: place.value } }));
      case 'shift_schedule':
        return ok(apiB.POST('/api/shifts/custom-fields', { body: { ...body, entity_type: place.value } }));
      case 'campaign':
        return ok(apiB.POST('/api/fundraising/custom-fields', { body: { ...body, entity_type: place.value } }));
    }
  },
  patch: async (entity: string, id: string, body: Patch): Promise<FieldDef> => {
    switch (placeOf(entity).path) {
      case '/api/animals/custom-fields':
        return ok(apiB.PATCH('/api/animals/custom-fields/{id}', { ...byId(id), body }));
      case '/api/people/custom-fields':
        return ok(apiB.PATCH('/api/people/custom-fields/{id}', { ...byId(id), body }));
      case '/api/shifts/custom-fields':
        return ok(apiB.PATCH('/api/shifts/custom-fields/{id}', { ...byId(id), body }));
      case '/api/fundraising/custom-fields':
        return ok(apiB.PATCH('/api/fundraising/custom-fields/{id}', { ...byId(id), body }));
    }
  },
  retire: async (entity: string, id: string): Promise<FieldDef> => {
    switch (placeOf(entity).path) {
      case '/api/animals/custom-fields':
        return ok(apiB.POST('/api/animals/custom-fields/{id}/retire', byId(id)));
      case '/api/people/custom-fields':
        return ok(apiB.POST('/api/people/custom-fields/{id}/retire', byId(id)));
      case '/api/shifts/custom-fields':
        return ok(apiB.POST('/api/shifts/custom-fields/{id}/retire', byId(id)));
      case '/api/fundraising/custom-fields':
        return ok(apiB.POST('/api/fundraising/custom-fields/{id}/retire', byId(id)));
    }
  },
  restore: async (entity: string, id: string): Promise<FieldDef> => {
    switch (placeOf(entity).path) {
      case '/api/animals/custom-fields':
        return ok(apiB.POST('/api/animals/custom-fields/{id}/restore', byId(id)));
      case '/api/people/custom-fields':
        return ok(apiB.POST('/api/people/custom-fields/{id}/restore', byId(id)));
      case '/api/shifts/custom-fields':
        return ok(apiB.POST('/api/shifts/custom-fields/{id}/restore', byId(id)));
      case '/api/fundraising/custom-fields':
        return ok(apiB.POST('/api/fundraising/custom-fields/{id}/restore', byId(id)));
    }
  },
  order: async (entity: string, field_ids: string[]) => {
    const place = placeOf(entity);
    switch (place.value) {
      case 'animal':
      case 'location_unit':
      case 'adoption_application':
        return ok(apiB.PUT('/api/animals/custom-fields/order', { body: { entity_type: place.value, field_ids } }));
      case 'person':
        return ok(apiB.PUT('/api/people/custom-fields/order', { body: { entity_type: place.value, field_ids } }));
      case 'shift_schedule':
        return ok(apiB.PUT('/api/shifts/custom-fields/order', { body: { entity_type: place.value, field_ids } }));
      case 'campaign':
        return ok(apiB.PUT('/api/fundraising/custom-fields/order', { body: { entity_type: place.value, field_ids } }));
    }
  },
};
