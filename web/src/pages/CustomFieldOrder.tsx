import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useCustomFields } from '../queries/settings';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable } from './parts';
import { FIELD_PLACES, fieldsApi, placeOf, type FieldEntity } from './customFieldPlaces';

/**
 * The order custom fields of one kind of record are shown and asked in: moving one sends the whole new order in one
 * `PUT …/custom-fields/order` of the record's area (one transaction; retired fields go last). Offers the kinds of
 * record whose area the member administers.
 */
export function CustomFieldOrder() {
  const client = useQueryClient();
  const grants = useSession().data?.grants;
  const places = FIELD_PLACES.filter((p) => can(grants, p.area, 'admin'));
  const [entity, setEntity] = useState<FieldEntity>('animal');
  const path = placeOf(entity).path;
  const list = useCustomFields(path);
  const fields = (list.data?.results ?? []).filter((d) => d.entity_type === entity);
  const move = useMutation({
    mutationFn: ({ i, by }: { i: number; by: -1 | 1 }) => {
      const ids = fields.map((d) => d.id);
      [ids[i], ids[i + by]] = [ids[i + by], ids[i]];
      return fieldsApi.order(entity, ids);
    },
    onSuccess: (_, { i, by }) => {
      notify(`Moved ${fields[i]?.field_label ?? 'the field'} ${by < 0 ? 'up' : 'down'}`);
      void client.invalidateQueries({ queryKey: keys.customFields.all });
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
          <Select
            label="Fields kept on"
            data={places.map((p) => ({ value: p.value, label: p.label }))}
            value={entity}
            allowDeselect={false}
            onChange={(v) => setEntity(v ?? 'animal')}
            w={240}
          />
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
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Move the field ${d.field_label} up`}
                      disabled={i === 0 || move.isPending}
                      onClick={() => move.mutate({ i, by: -1 })}
                    >
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
