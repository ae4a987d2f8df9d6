import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fieldError, formError } from '../api';
import { notify } from '../notify';

/** One field of an entry's form: text, a whole number (empty: none), a list of words, or a yes/no. */
export type EditField =
  | { key: string; label: string; kind: 'text'; required?: boolean; description?: string }
  | { key: string; label: string; kind: 'number'; required?: boolean; min?: number; description?: string }
  | { key: string; label: string; kind: 'tags'; description?: string; placeholder?: string }
  | { key: string; label: string; kind: 'check' };
type Value = string | number | string[] | boolean | null;
/** A field's value as each control holds it: a list for tags, a number ('' when none) and text. */
const listOf = (v: Value | undefined): string[] => (Array.isArray(v) ? v : []);
const numberOf = (v: Value | undefined): number | string => (typeof v === 'number' ? v : '');
const textOf = (v: Value | undefined): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * Change and remove buttons for one entry of a settings list. *Change* opens a form of the given fields; only
 * the fields that changed are sent, and the API's sentence shows under the field it names. *Remove* (or
 * *Retire*) asks once more, saying what happens, then shows the API's sentence when it refuses (an entry in use).
 */
export function EntryActions({
  name,
  fields,
  values,
  save,
  remove,
  removeLabel = 'Remove',
  removeSays,
  invalidate,
}: {
  /** The entry as named in buttons and titles, e.g. "the breed Border Collie". */
  name: string;
  fields: EditField[];
  values: Record<string, Value>;
  save: (changed: Record<string, Value>) => Promise<unknown>;
  remove?: () => Promise<unknown>;
  removeLabel?: string;
  removeSays?: string;
  invalidate: unknown[];
}) {
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const [asking, ask] = useDisclosure(false);
  const [f, setF] = useState(values);
  const changed = () => Object.fromEntries(Object.entries(f).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(values[k])));
  const done = (said: string) => {
    notify(said);
    void client.invalidateQueries({ queryKey: invalidate });
  };
  const update = useMutation({
    mutationFn: () => save(changed()),
    onSuccess: () => {
      edit.close();
      done(`Saved ${name}`);
    },
  });
  const drop = useMutation({
    mutationFn: () => (remove ? remove() : Promise.resolve()),
    onSuccess: () => {
      ask.close();
      done(`${removeLabel === 'Remove' ? 'Removed' : `${removeLabel}d`} ${name}`);
    },
  });
  const keys = fields.map((x) => x.key);
  const input = (x: EditField) => {
    const error = fieldError(update.error, x.key);
    if (x.kind === 'check')
      return (
        <Checkbox
          key={x.key}
          label={x.label}
          checked={f[x.key] === true}
          onChange={(e) => setF({ ...f, [x.key]: e.currentTarget.checked })}
        />
      );
    if (x.kind === 'tags')
      return (
        <TagsInput
          key={x.key}
          label={x.label}
          description={x.description}
          placeholder={x.placeholder}
          value={listOf(f[x.key])}
          onChange={(v) => setF({ ...f, [x.key]: v })}
          error={error}
        />
      );
    if (x.kind === 'number')
      return (
        <NumberInput
          key={x.key}
          label={x.label}
          description={x.description}
          required={x.required}
          min={x.min}
          allowDecimal={false}
          value={numberOf(f[x.key])}
          onChange={(v) => setF({ ...f, [x.key]: v === '' ? null : Number(v) })}
          error={error}
        />
      );
    return (
      <TextInput
        key={x.key}
        label={x.label}
        description={x.description}
        required={x.required}
        value={textOf(f[x.key])}
        onChange={(e) => setF({ ...f, [x.key]: e.currentTarget.value })}
        error={error}
      />
    );
  };
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Change ${name}`}
        onClick={() => {
          setF(values);
          update.reset();
          edit.open();
        }}
      >
        Change
      </Button>
      {remove && (
        <Button
          size="compact-sm"
          variant="subtle"
          aria-label={`${removeLabel} ${name}`}
          onClick={() => {
            drop.reset();
            ask.open();
          }}
        >
          {removeLabel}
        </Button>
      )}
      <Modal opened={editing} onClose={edit.close} title={`Change ${name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <form
          aria-label={`Change ${name}`}
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate();
          }}
        >
          <Stack gap="xs">
            {fields.map(input)}
            {formError(update.error, keys) && <Alert color="red">{formError(update.error, keys)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={edit.close}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal opened={asking} onClose={ask.close} title={`${removeLabel} ${name}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="xs">
          {removeSays && <Text size="sm">{removeSays}</Text>}
          {drop.error && <Alert color="red">{drop.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={ask.close}>
              Keep it
            </Button>
            <Button color="red.9" onClick={() => drop.mutate()} loading={drop.isPending}>
              {removeLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
