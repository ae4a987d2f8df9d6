import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB } from './types';

/** The partner organizations' data hooks, under keys from the factory and typed by the generated API types. */
const page = { limit: 100, offset: 0 };

export type PartnerKind = NonNullable<FiltersB<'/api/partners'>['kind']>;
export const PARTNER_KINDS = ['rescue', 'shelter', 'vet', 'transport', 'supplier', 'other'] as const satisfies readonly PartnerKind[];

/** Partners of a kind (any when undefined) matching the search, 100 at most. */
export const usePartners = (kind: PartnerKind | undefined, q: string) =>
  useQuery({
    queryKey: keys.partners.list(kind ?? '', q),
    queryFn: () => ok(apiB.GET('/api/partners', { params: { query: { ...page, ...(kind ? { kind } : {}), ...(q ? { q } : {}) } } })),
  });
export const usePartnerLocations = (id: string) =>
  useQuery({
    queryKey: keys.partners.part('locations', id),
    queryFn: () => ok(apiB.GET('/api/partners/{id}/locations', { params: { path: { id }, query: page } })),
  });
export const usePartnerAffiliations = (id: string) =>
  useQuery({
    queryKey: keys.partners.part('affiliations', id),
    queryFn: () => ok(apiB.GET('/api/partners/{id}/affiliations', { params: { path: { id }, query: page } })),
  });
