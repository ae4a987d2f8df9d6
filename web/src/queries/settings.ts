import { useQueries, useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { type FIELD_ROUTES, fieldsApi } from '../pages/customFieldPlaces';
import { keys } from './keys';

/**
 * The settings domain's data hooks: the organization, its team and roles, API keys, animal statuses, stay subtypes,
 * custom fields and the care catalogues, each under a key from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

/** The organization's profile; `enabled` false reads nothing (no grant). */
export const useOrganization = (enabled = true) =>
  useQuery({ queryKey: keys.organization, queryFn: () => ok(apiB.GET('/api/settings/organization')), enabled });
/** The team members with their roles. */
export const useMembers = (enabled = true) =>
  useQuery({ queryKey: keys.members, queryFn: () => ok(apiB.GET('/api/members', { params: { query: {} } })), enabled });
/** The roles and their grants; `enabled` false reads nothing (not an administrator). */
export const useRoles = (enabled = true) => useQuery({ queryKey: keys.roles, queryFn: () => ok(apiB.GET('/api/settings/roles')), enabled });
export const useApiKeys = () => useQuery({ queryKey: keys.apiKeys, queryFn: () => ok(apiB.GET('/api/settings/keys')) });
/** The animal statuses; `staleTime` for pickers that read them on every form. */
export const useStatuses = (staleTime?: number) =>
  useQuery({ queryKey: keys.statuses, queryFn: () => ok(apiB.GET('/api/animals/statuses')), ...(staleTime ? { staleTime } : {}) });
export const useStayStatusMap = () =>
  useQuery({ queryKey: keys.stayStatusMap, queryFn: () => ok(apiB.GET('/api/animals/stay-status-map')) });

/** Intake or outcome subtypes; retired ones too when asked. */
export const useStaySubtypes = (kind: 'intake' | 'outcome', includeRetired = false, staleTime?: number) =>
  useQuery({
    queryKey: keys.staySubtypes.list(kind, includeRetired),
    queryFn: () =>
      ok(
        apiB.GET('/api/animals/stay-subtypes', {
          params: { query: { kind, ...(includeRetired ? { include_retired: true } : {}), ...page } },
        }),
      ),
    ...(staleTime ? { staleTime } : {}),
  });

type FieldPath = (typeof FIELD_ROUTES)[number]['path'];
/** The custom field definitions of one area's route. */
export const useCustomFields = (path: FieldPath, includeRetired = false) =>
  useQuery({ queryKey: keys.customFields.list(path, includeRetired), queryFn: () => fieldsApi.list(path, includeRetired) });
/** The custom field definitions of each of these routes. */
export const useCustomFieldLists = (paths: readonly FieldPath[], includeRetired: boolean) =>
  useQueries({
    queries: paths.map((path) => ({
      queryKey: keys.customFields.list(path, includeRetired),
      queryFn: () => fieldsApi.list(path, includeRetired),
    })),
  });
/** The animal's custom field definitions (for the profile's fields), read once in five minutes. */
export const useAnimalFieldDefinitions = () =>
  useQuery({
    queryKey: keys.customFields.entity('animal'),
    queryFn: () => ok(apiB.GET('/api/animals/custom-fields', { params: { query: { entity_type: 'animal' } } })),
    staleTime: 300_000,
  });

/** Breeds (of one species when given, lowercase); `enabled` false reads nothing. */
export const useBreeds = (species = '', enabled = true) =>
  useQuery({
    queryKey: keys.catalogue.list('breeds', species),
    queryFn: () => ok(apiB.GET('/api/animals/breeds', { params: { query: { ...page, ...(species ? { species } : {}) } } })),
    enabled,
  });
export const useAgeGroups = () =>
  useQuery({
    queryKey: keys.catalogue.of('ages'),
    queryFn: () => ok(apiB.GET('/api/animals/age-groups', { params: { query: page } })),
  });
export const useBehaviourAttributes = () =>
  useQuery({
    queryKey: keys.catalogue.of('traits'),
    queryFn: () => ok(apiB.GET('/api/animals/behaviour-attributes', { params: { query: page } })),
  });
/** The medical catalogue (of one species when given, lowercase). */
export const useMedicalCatalogue = (species = '') =>
  useQuery({
    queryKey: keys.catalogue.list('medical', species),
    queryFn: () => ok(apiB.GET('/api/animals/medical/catalogue', { params: { query: { ...page, ...(species ? { species } : {}) } } })),
  });
/** The medical protocols. */
export const useProtocols = () =>
  useQuery({
    queryKey: keys.protocols,
    queryFn: () => ok(apiB.GET('/api/animals/medical/protocols', { params: { query: page } })),
  });

/** The public site's look and texts. */
export const usePublicSite = () => useQuery({ queryKey: keys.publicSite, queryFn: () => ok(apiB.GET('/api/settings/public-site')) });
/** The listing feeds sent to adoption sites. */
export const useSyndication = () =>
  useQuery({ queryKey: keys.syndication, queryFn: () => ok(apiB.GET('/api/settings/syndication', { params: { query: page } })) });
/** The webhook endpoints. */
export const useWebhooks = () =>
  useQuery({ queryKey: keys.webhooks.list, queryFn: () => ok(apiB.GET('/api/settings/webhooks', { params: { query: page } })) });
/** An endpoint's latest 25 deliveries. */
export const useWebhookDeliveries = (id: string) =>
  useQuery({
    queryKey: keys.webhooks.deliveries(id),
    queryFn: () => ok(apiB.GET('/api/settings/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 25, offset: 0 } } })),
  });
/** What a one-time link is for (an invitation names the organization and the email); not retried when it is stale. */
export const useSignInLink = (token: string) =>
  useQuery({
    queryKey: keys.link(token),
    queryFn: () => ok(apiB.GET('/api/session/links/{token}', { params: { path: { token } } })),
    retry: false,
  });
