import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB, OkB } from './types';

/**
 * The shared registry's data hooks: the organization's own flags, their history, matches for a person, the check
 * shown on a person's page, microchip lookups and the registry settings, under keys from the factory.
 */
const page = { limit: 100, offset: 0 };

export type FlagStatus = NonNullable<FiltersB<'/api/registry/flags'>['status']>;
export const FLAG_STATUSES = ['active', 'withdrawn', 'removed'] as const satisfies readonly FlagStatus[];
/** One of the organization's own flags. */
export type OwnFlag = OkB<'/api/registry/flags'>['results'][number];
/** A flag that matches a person (raised by any rescue). */
export type FlagMatch = OkB<'/api/registry/flags/matches'>['results'][number];
export type FlagCategory = OwnFlag['category'];

/** The organization's flags in a status (every one when undefined). */
export const useOwnFlags = (status: FlagStatus | undefined) =>
  useQuery({
    queryKey: keys.registry.flagList(status ?? ''),
    queryFn: () => ok(apiB.GET('/api/registry/flags', { params: { query: { ...page, ...(status ? { status } : {}) } } })),
  });
export const useFlagHistory = (flagId: string) =>
  useQuery({
    queryKey: keys.registry.history(flagId),
    queryFn: () => ok(apiB.GET('/api/registry/flags/{id}/history', { params: { path: { id: flagId }, query: page } })),
  });
/** Flags matching a person on file (nothing until one is chosen). */
export const useFlagMatches = (personId: string | null) =>
  useQuery({
    queryKey: keys.registry.matches(personId),
    queryFn: () => ok(apiB.GET('/api/registry/flags/matches', { params: { query: { person_id: personId ?? '' } } })),
    enabled: !!personId,
  });
/** The registry check shown on a person's page; `enabled` false reads nothing (no grant). */
export const useRegistryCheck = (personId: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.registry.check(personId),
    queryFn: () => ok(apiB.GET('/api/registry/people/{person_id}/check', { params: { path: { person_id: personId } } })),
    enabled,
  });
/** Who the registry says a microchip belongs to; `enabled` false reads nothing (too short to look up). */
export const useChipLookup = (number: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.registry.chip(number),
    enabled,
    retry: false,
    queryFn: () => ok(apiB.GET('/api/registry/microchips/{number}', { params: { path: { number }, query: { limit: 10, offset: 0 } } })),
  });
export const useRegistrySettings = () =>
  useQuery({ queryKey: keys.registry.settings, queryFn: () => ok(apiB.GET('/api/registry/settings')) });
export const FLAG_CATEGORIES = [
  'do_not_adopt',
  'animal_cruelty_conviction',
  'returned_animals_repeatedly',
  'fraudulent_payment',
  'other',
] as const satisfies readonly FlagCategory[];
