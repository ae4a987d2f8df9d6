// Building and changing a form (admin on Forms): name, public address, purpose, description and the fields
// in order (label, key, type, required, options), sent whole with POST /api/forms or PATCH /api/forms/{id};
// and publishing or unpublishing one from the list.
import { useState } from 'react';
import { ActionIcon, Alert, Button, Card, Checkbox, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';

const PURPOSES = ['adoption_application', 'foster_application', 'volunteer_application', 'surrender_request', 'general_contact'] as const;
type Purpose = (typeof PURPOSES)[number];
const TYPES = ['text', 'textarea', 'number', 'boolean', 'date', 'select', 'multiselect', 'phone', 'email', 'url', 'country_state'] as const;
type FieldType = (typeof TYPES)[number];
const TYPE_LABELS: Record<FieldType, string> = {
  text: 'Short text',
  textarea: 'Long text',
  number: 'Number',
  boolean: 'Yes or no',
  date: 'Date',
  select: 'One choice',
  multiselect: 'Several choices',
  phone: 'Phone',
  email: 'Email',
  url: 'Web address',
  country_state: 'Country and state',
};
const words = (v: string) => v.charAt(0).toUpperCase() + v.slice(1).replaceAll('_', ' ');
/** A key from a label: lower case, underscores, starting with a letter (the API's ^[a-z][a-z0-9_]*$). */
const keyOf = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
const isChoice = (t: FieldType) => t === 'select' || t === 'multiselect';

/** help_text and section are not edited here; a field that has them sends them back unchanged (the fields are replaced whole). */
type Field = {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  options: string;
  keyTouched: boolean;
  help_text?: string;
  section?: string;
};
export type FormShape = {
  id: string;
  name: string;
  slug: string;
  purpose: string;
  description: string;
  status: string;
  fields: { key: string; label: string; type: string; required: boolean; options: string[]; help_text: string; section: string }[];
};

/** The builder as a dialog: `form` to change one, none to build a new one (it starts as a draft). */
export function FormBuilder({ form, opened, onClose }: { form?: FormShape; opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="62rem"
      title={form ? `Change ${form.name}` : 'Build a form'}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <Builder key={form?.id ?? 'new'} form={form} onDone={onClose} />}
    </Modal>
  );
}

function Builder({ form, onDone }: { form?: FormShape; onDone: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(form?.name ?? '');
  const [slug, setSlug] = useState(form?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(!!form);
  const [purpose, setPurpose] = useState<Purpose>(oneOf(PURPOSES, form?.purpose) ?? 'general_contact');
  const [description, setDescription] = useState(form?.description ?? '');
  const [fields, setFields] = useState<Field[]>(
    form?.fields.map((f) => ({ ...f, type: oneOf(TYPES, f.type) ?? 'text', options: f.options.join('\n'), keyTouched: true })) ?? [
      { key: 'first_name', label: 'First name', type: 'text', required: true, options: '', keyTouched: true },
      { key: 'last_name', label: 'Last name', type: 'text', required: true, options: '', keyTouched: true },
      { key: 'email', label: 'Email', type: 'email', required: true, options: '', keyTouched: true },
    ],
  );
  const put = (i: number, f: Partial<Field>) => setFields(fields.map((x, j) => (j === i ? { ...x, ...f } : x)));
  const move = (i: number, by: number) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + by, 0, f);
    setFields(next);
  };
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        slug,
        purpose,
        description,
        fields: fields.map((f) => ({
          key: f.key,
          label: f.label.trim(),
          type: f.type,
          required: f.required,
          ...(f.help_text ? { help_text: f.help_text } : {}),
          ...(f.section ? { section: f.section } : {}),
          ...(isChoice(f.type)
            ? {
                options: f.options
                  .split('\n')
                  .map((o) => o.trim())
                  .filter(Boolean),
              }
            : {}),
        })),
      };
      return form
        ? ok(apiB.PATCH('/api/forms/{id}', { params: { path: { id: form.id } }, body }))
        : ok(apiB.POST('/api/forms', { body: { ...body, status: 'draft' } }));
    },
    onSuccess: (f) => {
      notify(form ? `${f.name} saved` : `${f.name} built as a draft: publish it to open its public page`);
      void client.invalidateQueries({ queryKey: keys.forms.all });
      onDone();
    },
  });
  const err = save.error;
  const named = ['name', 'slug', 'purpose', 'description', ...fields.flatMap((_f, i) => [`fields.${i}.key`, `fields.${i}.options`])];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <Group align="flex-start">
          <TextInput
            label="Name"
            required
            w={280}
            maxLength={200}
            value={name}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setName(v);
              if (!slugTouched) setSlug(slugOf(v));
            }}
            error={fieldError(err, 'name')}
          />
          <TextInput
            label="Public address"
            description="/forms/ and this: lower-case letters, digits and dashes"
            required
            w={280}
            value={slug}
            onChange={(e) => {
              setSlug(e.currentTarget.value);
              setSlugTouched(true);
            }}
            error={fieldError(err, 'slug')}
          />
          <Select
            label="Purpose"
            description="what a submission becomes"
            w={240}
            data={PURPOSES.map((p) => ({ value: p, label: words(p) }))}
            value={purpose}
            onChange={(v) => setPurpose(oneOf(PURPOSES, v) ?? 'general_contact')}
            allowDeselect={false}
            error={fieldError(err, 'purpose')}
          />
        </Group>
        <Textarea
          label="Description"
          description="shown above the fields"
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldError(err, 'description')}
        />
        <Text fw={600}>Fields, in the order they are shown</Text>
        <Text size="sm" c="dimmed">
          Answers under the keys first_name, last_name, email and phone fill the person a submission becomes.
        </Text>
        {!fields.length && <Alert color="gray">No fields yet: add the first one below.</Alert>}
        {fields.map((f, i) => {
          const n = i + 1;
          return (
            <Card key={i} withBorder p="sm" component="fieldset" aria-label={`Field ${n}`} style={{ margin: 0 }}>
              <Group align="flex-start" gap="sm">
                <TextInput
                  label={`Field ${n} label`}
                  required
                  w={220}
                  maxLength={200}
                  value={f.label}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    put(i, f.keyTouched ? { label: v } : { label: v, key: keyOf(v) });
                  }}
                />
                <TextInput
                  label={`Field ${n} key`}
                  required
                  w={160}
                  value={f.key}
                  onChange={(e) => put(i, { key: e.currentTarget.value, keyTouched: true })}
                  error={fieldError(err, `fields.${i}.key`)}
                />
                <Select
                  label={`Field ${n} type`}
                  w={170}
                  data={TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
                  value={f.type}
                  onChange={(v) => put(i, { type: oneOf(TYPES, v) ?? 'text' })}
                  allowDeselect={false}
                />
                {isChoice(f.type) && (
                  <Textarea
                    label={`Field ${n} choices`}
                    description="one a line"
                    required
                    w={200}
                    autosize
                    minRows={2}
                    value={f.options}
                    onChange={(e) => put(i, { options: e.currentTarget.value })}
                    error={fieldError(err, `fields.${i}.options`)}
                  />
                )}
                <Checkbox
                  mt={30}
                  label="Required"
                  aria-label={`Field ${n} required`}
                  checked={f.required}
                  onChange={(e) => put(i, { required: e.currentTarget.checked })}
                />
                <Group gap={4} mt={26}>
                  <ActionIcon variant="default" size="lg" aria-label={`Move field ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={`Move field ${n} down`}
                    disabled={i === fields.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={`Remove field ${n}`}
                    onClick={() => setFields(fields.filter((_x, j) => j !== i))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </Group>
            </Card>
          );
        })}
        <Group>
          <Button
            variant="default"
            onClick={() => setFields([...fields, { key: '', label: '', type: 'text', required: false, options: '', keyTouched: false }])}
          >
            Add a field
          </Button>
        </Group>
        {formError(err, named) && <Alert color="red">{formError(err, named)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {form ? 'Save the form' : 'Build the form'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Publish (the public page answers) or unpublish (back to draft) one form. */
export function PublishButton({ form }: { form: { id: string; name: string; status: string } }) {
  const client = useQueryClient();
  const to = form.status === 'published' ? 'draft' : 'published';
  const change = useMutation({
    mutationFn: () => ok(apiB.PATCH('/api/forms/{id}', { params: { path: { id: form.id } }, body: { status: to } })),
    onSuccess: () => {
      notify(to === 'published' ? `${form.name} published` : `${form.name} unpublished: its public page no longer answers`);
      void client.invalidateQueries({ queryKey: keys.forms.all });
    },
  });
  return (
    <>
      <Button
        size="xs"
        variant="default"
        onClick={() => change.mutate()}
        loading={change.isPending}
        aria-label={`${to === 'published' ? 'Publish' : 'Unpublish'} ${form.name}`}
      >
        {to === 'published' ? 'Publish' : 'Unpublish'}
      </Button>
      {change.error && (
        <Text size="xs" c="red.9">
          {change.error.message}
        </Text>
      )}
    </>
  );
}

/** The "Build a form" button and the builder it opens; `editing` opens the builder on an existing form. */
export function FormBuilderButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Build a form</Button>
      <FormBuilder opened={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** "Change" on a form's row: the builder on that form. */
export function ChangeFormButton({ form }: { form: FormShape }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="default" onClick={() => setOpen(true)} aria-label={`Change ${form.name}`}>
        Change
      </Button>
      <FormBuilder form={form} opened={open} onClose={() => setOpen(false)} />
    </>
  );
}
