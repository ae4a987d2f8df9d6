import { useState } from 'react';
import { Alert, Anchor, Button, Group, List, MultiSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiA, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import { useSimilarPeople } from '../queries/people';
import { notify } from '../notify';
import { phone } from './parts';

export const PERSON_ROLES = [
  'adopter',
  'foster',
  'volunteer',
  'donor',
  'staff',
  'vet',
  'sponsor',
  'driver',
  'home_checker',
  'other',
] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];
export const roleName = (r: string) => r.replaceAll('_', ' ');
const REASONS: Record<string, string> = { same_email: 'the same email', same_phone: 'the same phone', similar_name: 'a similar name' };

export interface PersonDraft {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  roles: PersonRole[];
}
const EMPTY: PersonDraft = { firstName: '', lastName: '', email: '', phone: '', roles: [] };

/** Who on file looks like the person being entered (GET /api/people/similar), shown before saving. */
export function LooksLike({ draft, exclude }: { draft: PersonDraft; exclude?: string }) {
  const [d] = useDebouncedValue(draft, 350);
  const query = { first_name: d.firstName.trim(), last_name: d.lastName.trim(), email: d.email.trim(), phone: d.phone.trim() };
  const any = Object.values(query).some(Boolean);
  const similar = useSimilarPeople(query, any);
  const found = (similar.data?.results ?? []).filter((p) => p.id !== exclude);
  if (!any || !found.length) return null;
  return (
    <Alert color="yellow" title="This may be someone already on file" role="status">
      <List size="sm">
        {found.map((p) => (
          <List.Item key={p.id}>
            <Anchor component={Link} to={`/people/${p.id}`} target="_blank" c="dark.9" underline="always">
              {p.display_name || p.email}
            </Anchor>{' '}
            ({[p.email, p.phone ? phone(p.phone) : ''].filter(Boolean).join(', ')}): {p.reasons.map((r) => REASONS[r] ?? r).join(' and ')}
          </List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        Open them instead, or save anyway and merge the two later from the person's page.
      </Text>
    </Alert>
  );
}

/** Adds a person (POST /api/v1/people) or changes one (PATCH), warning first about anyone on file who looks the same. */
export function PersonForm({
  person,
  onSaved,
  onCancel,
}: {
  person?: { id: string; firstName: string; lastName: string; email: string; phone: string | null; roles: string[] };
  onSaved: (id: string) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const [f, setF] = useState<PersonDraft>(
    person
      ? {
          firstName: person.firstName,
          lastName: person.lastName,
          email: person.email,
          phone: person.phone ?? '',
          roles: person.roles.flatMap((r) => oneOf(PERSON_ROLES, r) ?? []),
        }
      : EMPTY,
  );
  const body = {
    firstName: f.firstName.trim(),
    lastName: f.lastName.trim(),
    email: f.email.trim(),
    phone: f.phone.trim() || null,
    roles: f.roles,
  };
  const save = useMutation({
    mutationFn: () =>
      person ? ok(apiA.PATCH('/people/{id}', { params: { path: { id: person.id } }, body })) : ok(apiA.POST('/people', { body })),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.people.all });
      void client.invalidateQueries({ queryKey: keys.person.all(r.id) });
      notify(person ? 'Saved' : `${r.firstName} ${r.lastName} added`);
      onSaved(r.id);
    },
  });
  const fields = ['firstName', 'lastName', 'email', 'phone', 'roles'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="First name"
            required
            data-autofocus
            value={f.firstName}
            onChange={(e) => setF({ ...f, firstName: e.currentTarget.value })}
            error={fieldError(save.error, 'firstName')}
          />
          <TextInput
            label="Last name"
            required
            value={f.lastName}
            onChange={(e) => setF({ ...f, lastName: e.currentTarget.value })}
            error={fieldError(save.error, 'lastName')}
          />
          <TextInput
            label="Email"
            type="email"
            required
            value={f.email}
            onChange={(e) => setF({ ...f, email: e.currentTarget.value })}
            error={fieldError(save.error, 'email')}
          />
          <TextInput
            label="Phone"
            type="tel"
            value={f.phone}
            onChange={(e) => setF({ ...f, phone: e.currentTarget.value })}
            error={fieldError(save.error, 'phone')}
          />
        </SimpleGrid>
        <MultiSelect
          label="Roles"
          placeholder={f.roles.length ? undefined : 'None yet'}
          data={PERSON_ROLES.map((r) => ({ value: r, label: roleName(r) }))}
          value={f.roles}
          onChange={(v) => setF({ ...f, roles: v })}
          error={fieldError(save.error, 'roles')}
        />
        <LooksLike draft={f} exclude={person?.id} />
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {person ? 'Save' : 'Add the person'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
