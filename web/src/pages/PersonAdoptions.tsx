import { Anchor, Badge, Stack, Table, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useAdoptions, useApplications } from '../queries/adoptions';
import { ListTable, money } from './parts';
import { useZone, whenIn } from './zone';

const KIND_COLOR: Record<string, string> = { open: 'indigo.9', approved: 'teal.9', closed: 'gray.7' };

/** A person's adoption applications and adoptions (the person page's Adoptions tab). */
export function PersonAdoptions({ id }: { id: string }) {
  const tz = useZone();
  const apps = useApplications({ person_id: id });
  const adoptions = useAdoptions({ person_id: id });
  return (
    <Stack mt="md">
      <Title order={3} size="h5">
        Applications
      </Title>
      <ListTable
        rows={apps.data?.results}
        label="Adoption applications"
        empty="No adoption applications from this person: start one with Start an application."
        head={['Animals', 'Stage', 'Decision', 'Submitted', '']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              {a.animals.map((x, i) => (
                <span key={x.id}>
                  {i > 0 && ', '}
                  <Anchor component={Link} to={`/animals/${x.id}`}>
                    {x.name}
                  </Anchor>
                </span>
              ))}
            </Table.Td>
            <Table.Td>
              <Badge miw="max-content" variant="filled" color={KIND_COLOR[a.stage_kind] ?? 'gray.7'}>
                {a.stage}
              </Badge>
            </Table.Td>
            <Table.Td>{a.decision ?? '—'}</Table.Td>
            <Table.Td>{whenIn(a.submitted_at, tz)}</Table.Td>
            <Table.Td>
              <Anchor
                component={Link}
                to={`/adoptions?application=${a.id}`}
                aria-label={`Open the application for ${a.animals.map((x) => x.name).join(', ')}`}
              >
                Open
              </Anchor>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Title order={3} size="h5">
        Adoptions
      </Title>
      <ListTable
        rows={adoptions.data?.results}
        label="Adoptions"
        empty="No adoptions by this person yet."
        head={['Animal', 'Status', 'Adopted', 'Fee', 'Paid', 'Returned']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/animals/${a.animal_id}`}>
                {a.animal_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{a.status.replace('_', ' ')}</Table.Td>
            <Table.Td>{whenIn(a.adopted_at, tz)}</Table.Td>
            <Table.Td>{money(a.fee_minor / 100, a.currency)}</Table.Td>
            <Table.Td>{money(a.fee_paid_minor / 100, a.currency)}</Table.Td>
            <Table.Td>{a.returned_at ? whenIn(a.returned_at, tz) : '—'}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}
