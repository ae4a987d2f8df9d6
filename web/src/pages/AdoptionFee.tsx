import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiB, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';

import { notify } from '../notify';
import { money } from './parts';
import { dateIn, useZone } from './zone';

type Method = 'card' | 'cash' | 'check' | 'bank_transfer' | 'other';
const METHODS: { value: Method; label: string }[] = [
  { value: 'card', label: 'Card' },
  { value: 'cash', label: 'Cash' },
  { value: 'check', label: 'Check' },
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'other', label: 'Other' },
];

/**
 * Records the adoption fee as paid: a ledger entry linked to the adoption (POST /api/animals/adoptions/{id}/fee-payments),
 * or, before finalizing, to the application (POST /api/animals/adoption-applications/{id}/fee-payments; finalizing moves
 * it to the adoption).
 */
export function FeePaid({
  adoption,
  onApplication = false,
  onClose,
}: {
  adoption: { id: string; animal_name: string; fee_minor: number; fee_paid_minor: number; currency: string };
  onApplication?: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const tz = useZone();
  const due = Math.max(0, adoption.fee_minor - adoption.fee_paid_minor);
  const [amount, setAmount] = useState<number | string>(due / 100);
  const [method, setMethod] = useState<Method>('card');
  const [date, setDate] = useState(dateIn(new Date(), tz));
  const [notes, setNotes] = useState('');
  const pay = useMutation({
    mutationFn: async () => {
      const body = {
        amount_minor: Math.round(Number(amount) * 100),
        payment_method: method,
        date,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      };
      const params = { path: { id: adoption.id } };
      if (onApplication) await ok(apiB.POST('/api/animals/adoption-applications/{id}/fee-payments', { params, body }));
      else await ok(apiB.POST('/api/animals/adoptions/{id}/fee-payments', { params, body }));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.adoptions.all });
      void client.invalidateQueries({ queryKey: keys.applications.all });
      notify(`Fee paid: ${money(Math.round(Number(amount) * 100) / 100, adoption.currency)} for ${adoption.animal_name}`);
      onClose();
    },
  });
  const fields = ['amount_minor', 'payment_method', 'date', 'notes'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        pay.mutate();
      }}
    >
      <Stack>
        <Text size="sm">
          Fee {money(adoption.fee_minor / 100, adoption.currency)}, paid so far {money(adoption.fee_paid_minor / 100, adoption.currency)}.
          The payment is recorded in the donations ledger, linked to this{' '}
          {onApplication ? 'application (and to the adoption once it is finalized)' : 'adoption'}; no money is taken here.
        </Text>
        <Group grow align="flex-start">
          <NumberInput
            label="Amount paid"
            required
            min={0.01}
            decimalScale={2}
            value={amount}
            onChange={setAmount}
            error={fieldError(pay.error, 'amount_minor')}
            data-autofocus
          />
          <Select
            label="Paid by"
            required
            data={METHODS}
            value={method}
            onChange={(v) =>
              setMethod(
                oneOf(
                  METHODS.map((m) => m.value),
                  v,
                ) ?? 'card',
              )
            }
            allowDeselect={false}
            error={fieldError(pay.error, 'payment_method')}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label="Paid on"
            type="date"
            required
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            error={fieldError(pay.error, 'date')}
          />
          <TextInput
            label="Receipt or note"
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            error={fieldError(pay.error, 'notes')}
          />
        </Group>
        {formError(pay.error, fields) && <Alert color="red">{formError(pay.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={pay.isPending}>
            Record the payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
