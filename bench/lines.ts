/**
 * The bench's GET one and write lines, shared by the load run (bench/run.ts) and the statement
 * count (bench/statements.ts).
 */
import type { Target } from './load.ts';

const NOTES =
  'Came in as a stray found near the highway underpass. Friendly with other dogs after a slow introduction. Vaccinated, dewormed ' +
  'and microchipped on intake. Knows sit.';

export const GET_ONE = 'GET /api/v1/animals/{id}';

/**
 * Where each write line's ceiling (bench/ceiling.ts) answers: the same body, the same rows written by one prepared
 * statement behind a lean route.
 */
export const CEILING_PATHS: Record<string, string> = {
  'POST /api/v1/animals': '/animals',
  'PATCH /api/v1/animals/{id}': '/animal/{id}',
  'POST /api/v1/people': '/people',
  'PATCH /api/v1/people/{id}': '/person/{id}',
  'POST /api/v1/donations': '/donations',
};

/** GET one animal, then POST and PATCH animal, POST and PATCH person and POST donation (a donation dated `day`). */
export function writeTargets(origin: string, headers: Record<string, string>, day: string): Target[] {
  return [
    { name: GET_ONE, origin, method: 'GET', path: '/api/v1/animals/{id}', headers },
    {
      name: 'POST /api/v1/animals',
      origin,
      method: 'POST',
      path: '/api/v1/animals',
      headers,
      body: JSON.stringify({
        name: 'Biscuit',
        species: 'dog',
        breed: 'Beagle',
        status: 'Intake',
        intakeDate: '2026-11-01',
        weight: 30,
        notes: NOTES,
      }),
    },
    {
      name: 'PATCH /api/v1/animals/{id}',
      origin,
      method: 'PATCH',
      path: '/api/v1/animals/{id}',
      headers,
      body: '{"weight":{n}.5,"isPublic":true}',
    },
    {
      name: 'POST /api/v1/people',
      origin,
      method: 'POST',
      path: '/api/v1/people',
      headers,
      body: JSON.stringify({
        firstName: 'Maria',
        lastName: 'Hernández',
        email: 'maria.{u}@example.org',
        roles: ['donor', 'volunteer'],
        tags: ['newsletter'],
      }),
    },
    {
      name: 'PATCH /api/v1/people/{id}',
      origin,
      method: 'PATCH',
      path: '/api/v1/people/{id}',
      ids: 'people',
      headers,
      body: '{"notes":"Called back about the spring event ({n}).","tags":["newsletter"]}',
    },
    {
      name: 'POST /api/v1/donations',
      origin,
      method: 'POST',
      path: '/api/v1/donations',
      ids: 'people',
      headers,
      body: JSON.stringify({ donorId: '{id}', amount: 25, type: 'one-off', paymentMethod: 'card', date: day }),
    },
  ];
}
