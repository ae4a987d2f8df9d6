import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';

import { notify } from '../notify';
import { AnimalPicker, PersonPicker } from './parts';
import { LooksLike } from './PersonForm';

/**
 * Starts an adoption application for a walk-in (POST /api/animals/adoption-applications): the applicant on file or
 * new (the person with that email is used when on file), the animal, a note. Opens it on the Adoptions page after.
 */
function StartForm({ animalId, animalName, personId, personName, onClose }: Props & { onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [who, setWho] = useState<'known' | 'new'>(personId ? 'known' : 'new');
  const [person, setPerson] = useState<string | null>(personId ?? null);
  const [animal, setAnimal] = useState<string | null>(animalId ?? null);
  const [a, setA] = useState({ firstName: '', lastName: '', email: '', phone: '' });
  const [notes, setNotes] = useState('');
  const go = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/adoption-applications', {
          body: {
            ...(who === 'known'
              ? { person_id: person ?? '' }
              : {
                  applicant: {
                    first_name: a.firstName.trim(),
                    last_name: a.lastName.trim(),
                    email: a.email.trim(),
                    ...(a.phone.trim() ? { phone: a.phone.trim() } : {}),
                  },
                }),
            animal_ids: animal ? [animal] : [],
            ...(notes.trim() ? { notes: notes.trim() } : {}),
          },
        }),
      ),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.applications.all });
      void client.invalidateQueries({ queryKey: keys.person.every });
      notify(`Application started for ${r.applicant_name}`);
      for (const w of r.warnings) notify(w.message, 'yellow');
      for (const f of r.registry_flags) notify(`Registry flag: ${f.category.replaceAll('_', ' ')}, raised by ${f.raised_by}`, 'yellow');
      onClose();
      void navigate(`/adoptions?application=${r.id}`);
    },
  });
  const fields = [
    'person_id',
    'applicant',
    'applicant.first_name',
    'applicant.last_name',
    'applicant.email',
    'applicant.phone',
    'animal_ids',
    'notes',
  ];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        go.mutate();
      }}
    >
      <Stack>
        {personId ? (
          <Text size="sm">
            Applicant: <b>{personName}</b>
          </Text>
        ) : (
          <>
            <SegmentedControl
              aria-label="Applicant"
              w="fit-content"
              value={who}
              onChange={(v) => setWho(v)}
              data={[
                { value: 'new', label: 'Someone new' },
                { value: 'known', label: 'Someone on file' },
              ]}
            />
            {who === 'known' ? (
              <PersonPicker label="Applicant" required value={person} onChange={setPerson} error={fieldError(go.error, 'person_id')} />
            ) : (
              <>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label="First name"
                    required
                    value={a.firstName}
                    onChange={(e) => setA({ ...a, firstName: e.currentTarget.value })}
                    error={fieldError(go.error, 'applicant.first_name')}
                  />
                  <TextInput
                    label="Last name"
                    required
                    value={a.lastName}
                    onChange={(e) => setA({ ...a, lastName: e.currentTarget.value })}
                    error={fieldError(go.error, 'applicant.last_name')}
                  />
                  <TextInput
                    label="Email"
                    type="email"
                    required
                    value={a.email}
                    onChange={(e) => setA({ ...a, email: e.currentTarget.value })}
                    error={fieldError(go.error, 'applicant.email')}
                  />
                  <TextInput
                    label="Phone"
                    type="tel"
                    value={a.phone}
                    onChange={(e) => setA({ ...a, phone: e.currentTarget.value })}
                    error={fieldError(go.error, 'applicant.phone')}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed">
                  Someone already on file with this email is used, not added again.
                </Text>
                <LooksLike draft={{ ...a, roles: [] }} />
              </>
            )}
          </>
        )}
        {animalId ? (
          <Text size="sm">
            Animal: <b>{animalName}</b>
          </Text>
        ) : (
          <AnimalPicker label="Animal" value={animal} onChange={setAnimal} error={fieldError(go.error, 'animal_ids')} />
        )}
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          error={fieldError(go.error, 'notes')}
        />
        {formError(go.error, fields) && <Alert color="red">{formError(go.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={go.isPending} disabled={!animal || (who === 'known' && !person)}>
            Start the application
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface Props {
  animalId?: string;
  animalName?: string;
  personId?: string;
  personName?: string;
}

/** The "Start an application" button and its dialog (animal page, person page, Adoptions page). */
export function StartApplication(props: Props & { variant?: 'filled' | 'default' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={props.variant ?? 'default'} onClick={() => setOpen(true)}>
        Start an application
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title="Start an adoption application"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open && <StartForm {...props} onClose={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
