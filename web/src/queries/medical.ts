import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB } from './types';

/**
 * The medical domain's data hooks: what is due across the organization, the catalogue of medical items and the
 * protocols that schedule them, each under a key from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

/** What the due list can be narrowed by: kind, species, days ahead. */
export type MedicalDueFilters = FiltersB<'/api/animals/medical/due'>;
export type MedicalKind = NonNullable<MedicalDueFilters['kind']>;
export const MEDICAL_KINDS = ['vaccine', 'test', 'treatment', 'procedure'] as const satisfies readonly MedicalKind[];

/** Medical items due today or overdue (or within `within_days`), of animals in care, oldest first. */
export const useMedicalDue = (filters: MedicalDueFilters = {}) =>
  useQuery({
    queryKey: keys.medical.due(filters),
    queryFn: () => ok(apiB.GET('/api/animals/medical/due', { params: { query: { ...page, ...filters } } })),
  });
/** The medical catalogue (the first 100 items), for recording a treatment. */
export const useMedicalItems = () =>
  useQuery({
    queryKey: keys.medicalItems,
    queryFn: () => ok(apiB.GET('/api/animals/medical/catalogue', { params: { query: page } })),
  });
