import { useState, type ReactNode } from 'react';
import { Alert, Loader, Select, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiA, apiB, ok } from '../api';
import { can, useSession } from '../session';

/** A date-time from the API in the browser's zone (the organization's zone on a kennel's machine). */
export const when = (v: string | null | undefined) => (v ? new Date(v).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
/** A plain date (YYYY-MM-DD) as the reader writes dates. */
export const day = (v: string | null | undefined) => (v ? new Date(`${v.slice(0, 10)}T12:00:00`).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—');
/** Money in its own currency, never converted. */
export const money = (amount: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
export const today = () => new Date().toISOString().slice(0, 10);

/** A list of records as a table with a name for screen readers; an empty list says what to do next. */
export function ListTable<T>({
  rows,
  label,
  empty,
  head,
  row,
  minWidth = 600,
}: {
  rows: T[] | undefined;
  label: string;
  empty: ReactNode;
  head: string[];
  row: (r: T) => ReactNode;
  minWidth?: number;
}) {
  if (!rows) return <Loader aria-label="Loading" />;
  if (!rows.length) return <Alert color="gray">{empty}</Alert>;
  return (
    // A native scroller that takes focus, so a table wider than the screen scrolls from the keyboard too.
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} role="region" aria-label={label}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{rows.map(row)}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Chooses a person on file, searched by name, email or phone as one types. */
export function PersonPicker({
  label,
  value,
  onChange,
  error,
  role,
  required,
}: {
  label: string;
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
  role?: 'foster' | 'volunteer' | 'driver' | 'donor';
  required?: boolean;
}) {
  const [search, setSearch] = useState('');
  const q = search.trim();
  const people = useQuery({
    queryKey: ['people', 'pick', q, role],
    queryFn: () => ok(apiA.GET('/people', { params: { query: { page: 1, perPage: 25, ...(q ? { q } : {}), ...(role ? { role: [role] } : {}) } } })),
  });
  const data = (people.data?.data ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}${p.email ? ` (${p.email})` : ''}` }));
  return (
    <Select
      label={label}
      placeholder="Type a name"
      searchable
      required={required}
      data={data}
      value={value}
      onChange={onChange}
      onSearchChange={setSearch}
      searchValue={search}
      filter={({ options }) => options}
      nothingFoundMessage={people.isFetching ? 'Searching…' : 'Nobody on file matches'}
      error={error}
      w={280}
    />
  );
}

/** Chooses an animal in care by name (the first 100 in care, filtered as one types). */
export function AnimalPicker({
  label,
  value,
  onChange,
  error,
  required = true,
}: {
  label: string;
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
  required?: boolean;
}) {
  const animals = useQuery({
    queryKey: ['animals', 'pick'],
    queryFn: () => ok(apiA.GET('/animals', { params: { query: { page: 1, perPage: 100, careState: 'in_care' } } })),
  });
  const data = (animals.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.species})` }));
  return (
    <Select
      label={label}
      placeholder="Type a name"
      searchable
      required={required}
      clearable={!required}
      data={data}
      value={value}
      onChange={onChange}
      nothingFoundMessage="No animal in care matches"
      error={error}
      w={240}
    />
  );
}

/**
 * Who did something, by name: `member:<id>` is a team member (named from the members list when the
 * reader may see it, "you" for oneself), `key:<id>` an API key; anything else is shown as written.
 */
export function useActor() {
  const session = useSession();
  const members = useQuery({
    queryKey: ['members'],
    queryFn: () => ok(apiB.GET('/api/members', { params: { query: {} } })),
    enabled: can(session.data?.grants, 'settings', 'read'),
  });
  const names = new Map((members.data?.results ?? []).map((m) => [`member:${m.id}`, m.name]));
  return (v: unknown) => {
    if (typeof v !== 'string') return v === null || v === undefined || v === '' ? '—' : String(v);
    if (session.data && v === `member:${session.data.member.id}`) return `${session.data.member.name} (you)`;
    if (names.has(v)) return names.get(v) as string;
    if (v.startsWith('member:')) return 'a team member';
    if (v.startsWith('key:')) return 'an API key';
    return v || '—';
  };
}
