import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useRegistryCheck } from '../queries/registry';
import { can, useSession } from '../session';

/** The registry's quick check of a person on file (read on Registry): a warning when live flags match, linked to the details. */
export function RegistryCheck({ personId }: { personId: string }) {
  const session = useSession();
  const mayRead = can(session.data?.grants, 'registry', 'read');
  const check = useRegistryCheck(personId, mayRead);
  if (!mayRead || !check.data) return null;
  const details = (
    <Anchor component={Link} to={`/registry?tab=check&person=${personId}`} size="sm" c="dark.9" underline="always">
      See the registry check
    </Anchor>
  );
  if (!check.data.warning)
    return (
      <Text size="sm" c="dimmed">
        Registry: no flag from any rescue matches this person.
      </Text>
    );
  return (
    <Alert
      color="red"
      maw={640}
      title={`Registry warning: ${check.data.flags === 1 ? 'one live flag matches' : `${check.data.flags} live flags match`} this person`}
    >
      <Text size="sm">
        A rescue flagged someone with the same email, phone, or name and postal code. The decision stays with you. {details}
      </Text>
    </Alert>
  );
}
