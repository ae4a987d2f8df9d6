import { useState, type ReactNode } from 'react';
import { Alert, Loader, Select, Table } from '@mantine/core';
import { can, useSession } from '../session';
import { parsePhoneNumberFromString, getCountryCallingCode, isSupportedCountry, type CountryCode } from 'libphonenumber-js/min';
import { entriesOf } from '../api';
import { dayIn, todayIn, whenIn } from './zone';
import { asText } from '../text';
import { useMembers } from '../queries/settings';
import { useAnimalLookup, useAnimalsInCare } from '../queries/animals';
import { usePeoplePick } from '../queries/people';

/** A date-time from the API as "27 Nov 2026, 14:05" in the organization's zone (zone.ts: one format for the app). */
export const when = (v: string | null | undefined) => whenIn(v);
/** A date as "27 Nov 2026" (a plain YYYY-MM-DD as written; a timestamp as its day in the organization's zone). */
export const day = (v: string | null | undefined) => dayIn(v);
/** A length in whole days as words: "less than a day", "1 day", "12 days"; "—" when unknown. */
export const daysLong = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n < 1 ? 'less than a day' : `${n} ${n === 1 ? 'day' : 'days'}`;
/**
 * Any value from the API as a person reads it: Yes/No for true/false, a date or a moment in the app's one format, a list
 * joined, a country and state, never raw JSON; empty as "—".
 */
export function shown(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.length ? v.map(shown).join(', ') : '—';
  if (typeof v === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return dayIn(v);
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return whenIn(v);
    return v;
  }
  if (typeof v === 'object') {
    const o = entriesOf(v);
    const country = o.find(([k]) => k === 'country');
    if (country) return [o.find(([k]) => k === 'state')?.[1], country[1]].filter(Boolean).join(', ') || '—';
    return o.map(([k, x]) => `${k.replaceAll('_', ' ')}: ${shown(x)}`).join('; ');
  }
  return typeof v === 'number' || typeof v === 'bigint' ? v.toString() : '—';
}
/** Money in its own currency, never converted. */
export const money = (amount: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
/** Today in the organization's zone (YYYY-MM-DD). */
export const today = () => todayIn();

let orgCountry: CountryCode | undefined;
/** Called by the shell with the session's organization country. */
export function setOrgCountry(country: string | undefined) {
  const code = country?.toUpperCase();
  orgCountry = code && isSupportedCountry(code) ? code : undefined;
}
/**
 * A phone number as people of the organization's country write it: its national format for a number of
 * that country ("(212) 555-0123", "030 123456"), the international one for any other ("+44 20 7946 0958");
 * text that is no phone number is shown as written.
 */
export function phone(v: string | null | undefined): string {
  if (!v) return '—';
  const n = parsePhoneNumberFromString(v, orgCountry);
  if (!n || !n.isPossible()) return v;
  return n.country === orgCountry || (!n.country && n.countryCallingCode === (orgCountry && getCountryCallingCode(orgCountry)))
    ? n.formatNational()
    : n.formatInternational();
}

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
  if (!rows) return <Loader role="status" aria-label="Loading" />;
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
  const people = usePeoplePick(q, role);
  const data = (people.data?.data ?? []).map((p) => ({
    value: p.id,
    label: `${p.firstName} ${p.lastName}${p.email ? ` (${p.email})` : ''}`,
  }));
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

/**
 * Chooses an animal. `scope="in_care"` (the default, for placing or moving an animal): the first 100 in care,
 * filtered as one types. `scope="any"` (what a message or record is about): any animal of the organization,
 * searched by name or microchip as one types, most recently changed first, so an animal adopted a minute ago
 * is at the top.
 */
export function AnimalPicker({
  label,
  value,
  onChange,
  error,
  required = true,
  scope = 'in_care',
}: {
  label: string;
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
  required?: boolean;
  scope?: 'in_care' | 'any';
}) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  // Once chosen, the box shows the choice's label: that is no search.
  const q = picked && search === picked.label ? '' : search.trim().slice(0, 100);
  const inCare = useAnimalsInCare(scope === 'in_care');
  const any = useAnimalLookup(q, scope === 'any');
  const data =
    scope === 'in_care'
      ? (inCare.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.species})` }))
      : (any.data?.results ?? []).map((a) => ({
          value: a.id,
          label: `${a.name} (${a.species}, ${a.status.toLowerCase()}${a.microchip_number ? `, chip ${a.microchip_number}` : ''})`,
        }));
  // The chosen animal stays a choice while the search moves on, so its name stays in the box.
  if (scope === 'any' && picked && picked.value === value && !data.some((d) => d.value === picked.value)) data.unshift(picked);
  return (
    <Select
      label={label}
      placeholder={scope === 'any' ? 'Type a name or microchip' : 'Type a name'}
      searchable
      required={required}
      clearable={!required}
      data={data}
      value={value}
      onChange={(v, option) => {
        setPicked(v ? option : null);
        onChange(v);
      }}
      {...(scope === 'any' ? { onSearchChange: setSearch, searchValue: search, filter: ({ options }) => options } : {})}
      nothingFoundMessage={scope === 'any' ? (any.isFetching ? 'Searching…' : 'No animal on file matches') : 'No animal in care matches'}
      error={error}
      w={scope === 'any' ? 300 : 240}
      maw="100%"
    />
  );
}

/**
 * Who did something, by name: `member:<id>` is a team member (named from the members list when the
 * reader may see it, "you" for oneself), `key:<id>` an API key; anything else is shown as written.
 */
export function useActor() {
  const session = useSession();
  const members = useMembers(can(session.data?.grants, 'settings', 'read'));
  const names = new Map((members.data?.results ?? []).map((m) => [`member:${m.id}`, m.name]));
  return (v: unknown) => {
    if (typeof v !== 'string') return v === null || v === undefined || v === '' ? '—' : asText(v);
    if (session.data && v === `member:${session.data.member.id}`) return `${session.data.member.name} (you)`;
    const name = names.get(v);
    if (name !== undefined) return name;
    if (v.startsWith('member:')) return 'a team member';
    if (v.startsWith('key:')) return 'an API key';
    return v || '—';
  };
}
