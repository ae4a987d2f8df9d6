import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths } from '../api/b';
import { apiB, ok } from '../api';
import { keys } from './keys';

/**
 * The adoption domain's data hooks: applications, adoptions, their stages and contracts, each under a key from the
 * factory and typed by the generated API types. Filters are the endpoints' own query parameters.
 */
const page = { limit: 100, offset: 0 };

type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** What the applications list can be narrowed by (stage kind, animal, person), without paging. */
export type ApplicationFilters = Omit<Query<'/api/animals/adoption-applications'>, 'limit' | 'offset'>;
/** What the adoptions list can be narrowed by (status, animal, person), without paging. */
export type AdoptionFilters = Omit<Query<'/api/animals/adoptions'>, 'limit' | 'offset'>;
export type StageKind = NonNullable<ApplicationFilters['stage_kind']>;
export type AdoptionStatus = NonNullable<AdoptionFilters['status']>;

const STAGE_KINDS: readonly StageKind[] = ['open', 'approved', 'closed'];
const ADOPTION_STATUSES: readonly AdoptionStatus[] = ['trial', 'adopted', 'returned', 'trial_ended'];
/** A control's value as a stage kind, or undefined (every kind) for anything else, such as 'all'. */
export const stageKindOf = (v: string | null): StageKind | undefined => STAGE_KINDS.find((k) => k === v);
/** A control's value as an adoption status, or undefined (any status). */
export const adoptionStatusOf = (v: string | null): AdoptionStatus | undefined => ADOPTION_STATUSES.find((k) => k === v);

/** The first 100 applications matching the filters, newest first (`GET /api/animals/adoption-applications`). */
export const useApplications = (filters: ApplicationFilters) =>
  useQuery({
    queryKey: keys.applications.list(filters),
    queryFn: () => ok(apiB.GET('/api/animals/adoption-applications', { params: { query: { ...page, ...filters } } })),
  });
export const useApplication = (id: string) =>
  useQuery({
    queryKey: keys.applications.one(id),
    queryFn: () => ok(apiB.GET('/api/animals/adoption-applications/{id}', { params: { path: { id } } })),
  });
/** The contracts sent for an application, with their signatures. */
export const useApplicationContracts = (id: string) =>
  useQuery({
    queryKey: keys.applications.contracts(id),
    queryFn: () => ok(apiB.GET('/api/animals/signed-contracts', { params: { query: { ...page, application_id: id } } })),
  });
/** The first 100 adoptions matching the filters (`GET /api/animals/adoptions`). */
export const useAdoptions = (filters: AdoptionFilters) =>
  useQuery({
    queryKey: keys.adoptions.list(filters),
    queryFn: () => ok(apiB.GET('/api/animals/adoptions', { params: { query: { ...page, ...filters } } })),
  });
export const useApplicationStages = () =>
  useQuery({ queryKey: keys.applicationStages, queryFn: () => ok(apiB.GET('/api/animals/application-stages')) });
export const useContractTemplates = (enabled = true) =>
  useQuery({
    queryKey: keys.contractTemplates,
    queryFn: () => ok(apiB.GET('/api/animals/contract-templates', { params: { query: page } })),
    enabled,
  });

/** After an adoption write: every application and adoption list and record is read again. */
export function useAdoptionsChanged() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: keys.applications.all });
    void client.invalidateQueries({ queryKey: keys.adoptions.all });
  };
}

/** The adoption fee schedules. */
export const useFeeSchedules = () =>
  useQuery({ queryKey: keys.feeSchedules, queryFn: () => ok(apiB.GET('/api/animals/fee-schedules', { params: { query: page } })) });
/** The return windows and other adoption settings. */
export const useAdoptionSettings = () =>
  useQuery({ queryKey: keys.adoptionSettings, queryFn: () => ok(apiB.GET('/api/animals/adoption-settings')) });
/** The merge fields a contract template can use (they never change while the app runs). */
export const useContractMergeFields = () =>
  useQuery({
    queryKey: keys.contractMergeFields,
    queryFn: () => ok(apiB.GET('/api/animals/contract-templates/merge-fields')),
    staleTime: Infinity,
  });
/** A contract template's versions (read again when its current version changes). */
export const useContractTemplateVersions = (id: string, version: number) =>
  useQuery({
    queryKey: keys.contractTemplateVersions(id, version),
    queryFn: () => ok(apiB.GET('/api/animals/contract-templates/{id}/versions', { params: { path: { id } } })),
  });
/** The adoption fee of each animal (special needs or not), each under its own key. */
export const useAdoptionFees = (animalIds: readonly string[], specialNeeds: boolean) =>
  useQueries({
    queries: animalIds.map((id) => ({
      queryKey: keys.adoptionFee(id, specialNeeds),
      queryFn: () => ok(apiB.GET('/api/animals/{id}/adoption-fee', { params: { path: { id }, query: { special_needs: specialNeeds } } })),
    })),
  });
