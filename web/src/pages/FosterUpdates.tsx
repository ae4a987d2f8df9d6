import { useState } from 'react';
import { Alert, Anchor, Button, Card, Checkbox, Group, Image, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { useFosterUpdates, useReviewFosterUpdate, type FosterUpdateStatus } from '../queries/portal';
import { when } from './parts';

const STATUSES: readonly FosterUpdateStatus[] = ['pending', 'approved', 'declined'];
const STATUS_LABEL: Record<FosterUpdateStatus, string> = { pending: 'To review', approved: 'Approved', declined: 'Declined' };

/** The review queue of updates fosters send from the portal: read each one with its photos, approve or decline it. */
export default function FosterUpdates() {
  const s = useSession();
  const canReview = can(s.data?.grants, 'animals', 'write');
  const [status, setStatus] = useState<FosterUpdateStatus>('pending');
  const [keepPrivate, setKeepPrivate] = useState<Record<string, boolean>>({});
  const list = useFosterUpdates(status);
  const review = useReviewFosterUpdate();
  const act = (u: { id: string; animal_id: string; animal_name: string }, verb: 'approve' | 'decline') =>
    review.mutate(
      { id: u.id, verb, animalId: u.animal_id, publishPhotos: !keepPrivate[u.id] },
      {
        onSuccess: () =>
          notify(verb === 'approve' ? `The update on ${u.animal_name} is approved.` : `The update on ${u.animal_name} is declined.`),
        onError: (e) => notify(e.message, 'red'),
      },
    );
  const rows = list.data?.results ?? [];
  return (
    <Stack>
      <Title order={1}>Foster updates</Title>
      <Text c="dimmed">
        What fosters send from the portal. Each update is already an internal note on the animal; approving it makes its photos public
        (unless you keep them private), declining it publishes nothing.
      </Text>
      <SegmentedControl
        aria-label="Which updates"
        value={status}
        onChange={(v) => setStatus(v)}
        data={STATUSES.map((v) => ({ value: v, label: STATUS_LABEL[v] }))}
        style={{ alignSelf: 'flex-start' }}
      />
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.isLoading && <Text>Loading…</Text>}
      {list.isSuccess && rows.length === 0 && (
        <Text>{status === 'pending' ? 'No update waits for review.' : `No ${STATUS_LABEL[status].toLowerCase()} update.`}</Text>
      )}
      {rows.map((u) => (
        <Card key={u.id} withBorder component="section" aria-label={`Update on ${u.animal_name} from ${u.person_name}`}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h4">
                <Anchor component={Link} to={`/animals/${u.animal_id}`}>
                  {u.animal_name}
                </Anchor>{' '}
                from{' '}
                <Anchor component={Link} to={`/people/${u.person_id}`}>
                  {u.person_name}
                </Anchor>
              </Title>
              <Text size="sm" c="dimmed">
                Sent {when(u.created_at)}
                {u.reviewed_at ? ` · reviewed ${when(u.reviewed_at)}` : ''}
              </Text>
            </Group>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{u.body}</Text>
            {u.photo_urls.length > 0 && (
              <Group gap="xs">
                {u.photo_urls.map((src, i) => (
                  <Image key={src} src={src} alt={`Photo ${i + 1} of ${u.animal_name} from the foster`} h={120} w="auto" radius="sm" />
                ))}
              </Group>
            )}
            {u.status === 'pending' && canReview && (
              <Group>
                {u.photo_urls.length > 0 && (
                  <Checkbox
                    label="Keep the photos private"
                    checked={!!keepPrivate[u.id]}
                    onChange={(e) => setKeepPrivate({ ...keepPrivate, [u.id]: e.currentTarget.checked })}
                  />
                )}
                <Button onClick={() => act(u, 'approve')} loading={review.isPending && review.variables?.id === u.id}>
                  Approve
                </Button>
                <Button variant="default" onClick={() => act(u, 'decline')} disabled={review.isPending && review.variables?.id === u.id}>
                  Decline
                </Button>
              </Group>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
