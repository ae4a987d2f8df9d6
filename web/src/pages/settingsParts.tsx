import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fieldError } from '../api';
import { notify } from '../notify';

/**
 * The writes that move entry `i` of an ordered list one place up or down: the list is numbered 10, 20, 30…
 * in its new order and only entries whose number changes are sent (the stage and subtype APIs have no
 * reorder endpoint, so each moved entry is one PATCH of its `sort_order`).
 */
export function reorder<T extends { id: string; sort_order: number }>(
  list: T[],
  i: number,
  by: -1 | 1,
): { id: string; sort_order: number }[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return [];
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next.map((e, k) => ({ id: e.id, sort_order: (k + 1) * 10 })).filter((e, k) => next[k]?.sort_order !== e.sort_order);
}

/** Up and down buttons for one entry of an ordered list; `patch` writes one entry's new `sort_order`. */
export function MoveButtons<T extends { id: string; sort_order: number }>({
  list,
  index,
  name,
  patch,
  invalidate,
}: {
  list: T[];
  index: number;
  name: string;
  patch: (id: string, sort_order: number) => Promise<unknown>;
  invalidate: readonly unknown[];
}) {
  const client = useQueryClient();
  const [dir, setDir] = useState<-1 | 1>(-1);
  const move = useMutation({
    mutationFn: async (by: -1 | 1) => {
      setDir(by);
      // One at a time, in order: each answer is the entry as stored.
      for (const p of reorder(list, index, by)) await patch(p.id, p.sort_order);
    },
    onSuccess: (_, by) => notify(`Moved ${name} ${by < 0 ? 'up' : 'down'}`),
    onError: (e) => notify(e.message, 'red'),
    onSettled: () => void client.invalidateQueries({ queryKey: invalidate }),
  });
  return (
    <Group gap={2} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Move ${name} up`}
        disabled={index === 0 || move.isPending}
        loading={move.isPending && dir < 0}
        onClick={() => move.mutate(-1)}
      >
        ↑
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Move ${name} down`}
        disabled={index === list.length - 1 || move.isPending}
        loading={move.isPending && dir > 0}
        onClick={() => move.mutate(1)}
      >
        ↓
      </Button>
    </Group>
  );
}

/** Digits after the decimal point in a currency (USD 2, JPY 0). */
export const fractionDigits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Integer minor units as the decimal text of the amount ("15000" USD → "150.00"), built from digits, never a float. */
export function minorToText(minor: number, currency: string): string {
  const d = fractionDigits(currency);
  const s = String(Math.abs(Math.trunc(minor))).padStart(d + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return d ? `${sign}${s.slice(0, -d)}.${s.slice(-d)}` : `${sign}${s}`;
}

/** Minor units shown in their currency: the exact decimal text goes to Intl (no division, no float). */
export const showMinor = (minor: number, currency: string) => {
  const text = minorToText(minor, currency);
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(isNumeric(text) ? text : minor);
};
/** Whether text is a plain decimal ("-150.00"), which Intl.NumberFormat formats exactly (ES2023). */
const isNumeric = (s: string): s is Intl.StringNumericLiteral => /^-?\d+(\.\d+)?$/.test(s);

/**
 * Typed money ("150", "150.5", "150.50", "1 234,50" with a comma for the decimal point) as integer minor
 * units of the currency, or a sentence saying what is wrong. Worked on as text: no float is involved.
 */
export function textToMinor(text: string, currency: string): { minor: number } | { error: string } {
  const d = fractionDigits(currency);
  const t = text.replace(/[\s\u00a0']/g, '');
  if (!t) return { error: 'is required' };
  const m = /^(\d+)(?:[.,](\d*))?$/.exec(t);
  if (!m) return { error: d ? `must be an amount such as 150 or 150.${'0'.repeat(d)}` : 'must be a whole amount such as 150' };
  const frac = m[2] ?? '';
  if (frac.length > d)
    return { error: d ? `has at most ${d} digit${d === 1 ? '' : 's'} after the point in ${currency}` : `${currency} has no fractions` };
  const minor = Number(`${m[1]}${frac.padEnd(d, '0')}`);
  if (!Number.isSafeInteger(minor) || minor > 100_000_000_000) return { error: 'is too large' };
  return { minor };
}

/**
 * The API's sentence for one field: the field it names first (`fieldError`), or, since a Family B answer
 * carries the sentence alone, a sentence that matches `hint` (e.g. "Another stage has this name.").
 */
export function errorAt(err: unknown, field: string, hint?: RegExp): string | undefined {
  const named = fieldError(err, field);
  if (named) return named;
  return hint && err instanceof Error && hint.test(err.message) ? err.message : undefined;
}
/** The sentence for the form as a whole, when no field shows it. */
export function errorRest(err: unknown, fields: (string | [string, RegExp])[]): string | undefined {
  if (!err) return undefined;
  if (fields.some((f) => (typeof f === 'string' ? errorAt(err, f) : errorAt(err, f[0], f[1])))) return undefined;
  return err instanceof Error ? err.message : typeof err === 'string' ? err : 'Something went wrong.';
}
