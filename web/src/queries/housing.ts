import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';

/** The housing domain's data hooks: locations with their units, and foster homes, under keys from the factory. */

/** Every location with its units and occupants in one request (`include=units`); `enabled` false reads nothing. */
export const useLocations = (enabled = true) =>
  useQuery({
    queryKey: keys.housing.locations,
    queryFn: () => ok(apiB.GET('/api/animals/locations', { params: { query: { limit: 200, offset: 0, include: 'units' } } })),
    enabled,
  });
/** The active locations with their units and free places (the kennel pickers). */
export const useActiveUnits = () =>
  useQuery({
    queryKey: keys.housing.units,
    queryFn: () =>
      ok(apiB.GET('/api/animals/locations', { params: { query: { include: 'units', limit: 100, offset: 0, is_active: true } } })),
  });
/** Foster homes, only those with room when `available`; `enabled` false reads nothing. */
export const useFosterHomes = (available: boolean, enabled = true) =>
  useQuery({
    queryKey: keys.foster.homes(available),
    queryFn: () =>
      ok(
        apiB.GET('/api/animals/foster-homes', { params: { query: { limit: 100, offset: 0, ...(available ? { available: true } : {}) } } }),
      ),
    enabled,
  });
/** One foster home with its placements. */
export const useFosterHome = (id: string, enabled = true) =>
  useQuery({
    queryKey: keys.foster.home(id),
    queryFn: () => ok(apiB.GET('/api/animals/foster-homes/{id}', { params: { path: { id } } })),
    enabled,
  });
