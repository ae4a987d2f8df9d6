import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';

/**
 * The portal domain's data hooks: the review queue of updates fosters send from the portal, and staff's review of one.
 */
export type FosterUpdateStatus = 'pending' | 'approved' | 'declined';

/** Foster updates in a status (pending first for review), newest first, 100 at most. */
export const useFosterUpdates = (status: FosterUpdateStatus) =>
  useQuery({
    queryKey: keys.fosterUpdates.list(status),
    queryFn: () => ok(apiB.GET('/api/portal/foster-updates', { params: { query: { status, limit: 100, offset: 0 } } })),
  });

/** Approve (photos public unless `publish_photos` is false) or decline one update; refreshes every queue and the animal. */
export const useReviewFosterUpdate = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, verb, publishPhotos }: { id: string; verb: 'approve' | 'decline'; animalId: string; publishPhotos?: boolean }) =>
      verb === 'approve'
        ? ok(
            apiB.POST('/api/portal/foster-updates/{id}/approve', {
              params: { path: { id } },
              body: publishPhotos === false ? { publish_photos: false } : {},
            }),
          )
        : ok(apiB.POST('/api/portal/foster-updates/{id}/decline', { params: { path: { id } }, body: {} })),
    onSuccess: (_d, v) => {
      void qc.invalidateQueries({ queryKey: keys.fosterUpdates.all });
      void qc.invalidateQueries({ queryKey: keys.animal.all(v.animalId) });
    },
  });
};

/** Which parts of the portal are on and what adopters see (`GET /api/settings/portal`). */
export const usePortalSettings = () => useQuery({ queryKey: keys.portalSettings, queryFn: () => ok(apiB.GET('/api/settings/portal')) });

export interface PortalSettingsBody {
  foster: boolean;
  volunteer: boolean;
  adopter: boolean;
  donor: boolean;
  welcome: string;
  share_vaccinations: boolean;
  share_microchip: boolean;
  share_spay_neuter: boolean;
}
/** Saves the portal settings whole. */
export const useSavePortalSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PortalSettingsBody) => ok(apiB.PUT('/api/settings/portal', { body })),
    onSuccess: (saved) => qc.setQueryData(keys.portalSettings, saved),
  });
};

/** The person's portal account, or null when they were never invited (the API answers 404). */
export const usePortalAccount = (personId: string) =>
  useQuery({
    queryKey: keys.person.part(personId, 'portal-account'),
    queryFn: async () => {
      const r = await apiB.GET('/api/people/{id}/portal-account', { params: { path: { id: personId } } });
      if (r.response.status === 404) return null;
      return ok(Promise.resolve(r));
    },
  });

/** Invites the person to the portal (a new one-time link, emailed when mail is set up). */
export const useInvitePerson = (personId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => ok(apiB.POST('/api/people/{id}/portal-invitations', { params: { path: { id: personId } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.person.part(personId, 'portal-account') }),
  });
};

/** Whether the person is a volunteer, and applied or approved. */
export const useVolunteerStatus = (personId: string) =>
  useQuery({
    queryKey: keys.person.part(personId, 'volunteer-status'),
    queryFn: () => ok(apiB.GET('/api/people/{id}/volunteer-status', { params: { path: { id: personId } } })),
  });

/** Approves a volunteer (or marks them applied); the person's roles and portal account may change with it. */
export const useSetVolunteerStatus = (personId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: 'applied' | 'approved') =>
      ok(apiB.PUT('/api/people/{id}/volunteer-status', { params: { path: { id: personId } }, body: { status } })),
    onSuccess: (saved) => {
      qc.setQueryData(keys.person.part(personId, 'volunteer-status'), saved);
      void qc.invalidateQueries({ queryKey: keys.person.all(personId) });
    },
  });
};
