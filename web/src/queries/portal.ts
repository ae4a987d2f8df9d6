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
