import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { notify } from '../notify';
import { ListTable } from './parts';

type Entity = 'animal' | 'location_unit' | 'adoption_application';
const ENTITIES: { value: Entity; label: string }[] = [
  { value: 'animal', label: 'Animals' },
  { value: 'location_unit', label: 'Kennels and rooms' },
  { value: 'adoption_application', label: 'Adoption applications' },
];

/**
 * The order custom fields of one kind of record are shown and asked in: moving one sends the whole new
 * order in one `PUT /api/animals/custom-fields/order` (one transaction; retired fields go last).
 */
export function CustomFieldOrder() {
  const client = useQueryClient();
  const [entity, setEntity] = useState<Entity>('animal');
  const list = useQuery({
    queryKey: ['custom-fields', false],
    queryFn: () => ok(apiB.GET('/api/animals/custom-fields', { params: { query: { include_retired: false } } })),
  });
  const fields = (list.data?.results ?? []).filter((d) => d.entity_type === entity);
  const move = useMutation({
    mutationFn: ({ i, by }: { i: number; by: -1 | 1 }) => {
      const ids = fields.map((d) => d.id);
      [ids[i], ids[i + by]] = [ids[i + by] as string, ids[i] as string];
      return ok(apiB.PUT('/api/animals/custom-fields/order', { body: { entity_type: entity, field_ids: ids } }));
    },
    onSuccess: (_, { i, by }) => {
      notify(`Moved ${fields[i]?.field_label ?? 'the field'} ${by < 0 ? 'up' : 'down'}`);
      void client.invalidateQueries({ queryKey: ['custom-fields'] });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  return (
    <Paper withBorder p="sm" component="section" aria-label="Order of the custom fields">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Order of the custom fields
        </Title>
        <Group align="flex-end">
          <Select label="Fields kept on" data={ENTITIES} value={entity} allowDeselect={false} onChange={(v) => setEntity((v as Entity) ?? 'animal')} w={240} />
          <Text size="sm" c="dimmed" mb={6}>
            Records show and forms ask their fields in this order.
          </Text>
        </Group>
        {move.error && <Alert color="red">{move.error.message}</Alert>}
        <ListTable
          rows={list.data ? fields : undefined}
          label="Order of the custom fields"
          head={['Order', 'Field', 'Type', '']}
          empty="No fields in use on these records."
          minWidth={420}
          row={(d) => {
            const i = fields.indexOf(d);
            return (
              <Table.Tr key={d.id}>
                <Table.Td w={60}>{i + 1}</Table.Td>
                <Table.Td fw={600}>{d.field_label}</Table.Td>
                <Table.Td>{d.field_type}</Table.Td>
                <Table.Td w={90}>
                  <Group gap={2} wrap="nowrap">
                    <Button size="compact-sm" variant="subtle" aria-label={`Move the field ${d.field_label} up`} disabled={i === 0 || move.isPending} onClick={() => move.mutate({ i, by: -1 })}>
                      ↑
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Move the field ${d.field_label} down`}
                      disabled={i === fields.length - 1 || move.isPending}
                      onClick={() => move.mutate({ i, by: 1 })}
                    >
                      ↓
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          }}
        />
      </Stack>
    </Paper>
  );
}
