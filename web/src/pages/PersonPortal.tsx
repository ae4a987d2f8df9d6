import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notify } from '../notify';
import { usePortalAccount, useInvitePerson, useSetVolunteerStatus, useVolunteerStatus } from '../queries/portal';
import { when } from './parts';

/**
 * A person's portal account and volunteer approval on their page: the account's state in words, an invitation (a
 * one-time link, emailed when mail is set up), and for a volunteer applicant the approval (which invites them too).
 */
export function PersonPortal({ id, name, hasEmail, canWrite }: { id: string; name: string; hasEmail: boolean; canWrite: boolean }) {
  const account = usePortalAccount(id);
  const invite = useInvitePerson(id);
  const volunteer = useVolunteerStatus(id);
  const setStatus = useSetVolunteerStatus(id);
  const a = account.data;
  const v = volunteer.data;
  const state = !a
    ? 'Not invited to the portal yet.'
    : a.status === 'disabled'
      ? 'Portal account turned off: no sign-in.'
      : a.last_sign_in_at
        ? `Uses the portal as ${a.email}: last signed in ${when(a.last_sign_in_at)}.`
        : `Invited to the portal as ${a.email} (${when(a.created_at)}); no link used yet.`;
  return (
    <Card withBorder maw={640} component="section" aria-labelledby="person-portal">
      <Stack gap="xs">
        <Title order={3} size="h5" id="person-portal">
          Portal
        </Title>
        {account.isSuccess && <Text size="sm">{state}</Text>}
        {v?.volunteer && (
          <Text size="sm">{v.status === 'applied' ? 'Volunteer: applied, waiting for approval.' : 'Volunteer: approved.'}</Text>
        )}
        {canWrite && (
          <Group gap="xs">
            {v?.status === 'applied' && (
              <Button
                size="xs"
                loading={setStatus.isPending}
                onClick={() =>
                  setStatus.mutate('approved', {
                    onSuccess: () => notify(`${name} is an approved volunteer.`),
                    onError: (e) => notify(e.message, 'red'),
                  })
                }
              >
                Approve as a volunteer
              </Button>
            )}
            {hasEmail && account.isSuccess && (
              <Button
                size="xs"
                variant="default"
                loading={invite.isPending}
                onClick={() =>
                  invite.mutate(undefined, {
                    onSuccess: (r) =>
                      notify(r.emailed ? `An invitation is emailed to ${r.account.email}.` : `Hand this link over: ${r.sign_in_url}`),
                    onError: (e) => notify(e.message, 'red'),
                  })
                }
              >
                {a ? 'Send a new portal invitation' : 'Invite to the portal'}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
