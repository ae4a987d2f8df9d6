import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';

export const ADOPTION_FIELDS: repo.FormRow['fields'] = [
  { key: 'first_name', label: 'First name', type: 'text', required: true, help_text: '', options: [], section: 'About you' },
  { key: 'last_name', label: 'Last name', type: 'text', required: true, help_text: '', options: [], section: 'About you' },
  { key: 'email', label: 'Email', type: 'email', required: true, help_text: '', options: [], section: 'About you' },
  {
    key: 'phone',
    label: 'Phone',
    type: 'phone',
    required: false,
    help_text: 'We call before a home visit.',
    options: [],
    section: 'About you',
  },
  {
    key: 'animal_name',
    label: 'Which animal are you applying for?',
    type: 'text',
    required: false,
    help_text: '',
    options: [],
    section: 'Your home',
  },
  {
    key: 'home_type',
    label: 'Home',
    type: 'select',
    required: true,
    help_text: '',
    options: ['House', 'Flat', 'Other'],
    section: 'Your home',
  },
  { key: 'has_garden', label: 'Fenced garden', type: 'boolean', required: false, help_text: '', options: [], section: 'Your home' },
  {
    key: 'other_pets',
    label: 'Other pets',
    type: 'multiselect',
    required: false,
    help_text: '',
    options: ['Dogs', 'Cats', 'Small animals'],
    section: 'Your home',
  },
  {
    key: 'about',
    label: 'Tell us about your household',
    type: 'textarea',
    required: false,
    help_text: '',
    options: [],
    section: 'Your home',
  },
];

/** A published adoption application form with three submissions (one already a person), and a draft contact form. */
export async function seedForms(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const form = await repo.insertForm(q, org.id, {
    id: newId('frm'),
    slug: 'adopt',
    name: 'Adoption application',
    purpose: 'adoption_application',
    description: 'Tell us about yourself and your home; we reply within three days.',
    status: 'published',
    fields: ADOPTION_FIELDS,
    min_fill_seconds: 3,
    max_per_address_per_hour: 5,
  });
  await repo.insertForm(q, org.id, {
    id: newId('frm'),
    slug: 'contact',
    name: 'Contact us',
    purpose: 'general_contact',
    description: '',
    status: 'draft',
    fields: [
      { key: 'first_name', label: 'Name', type: 'text', required: true, help_text: '', options: [], section: '' },
      { key: 'email', label: 'Email', type: 'email', required: true, help_text: '', options: [], section: '' },
      { key: 'message', label: 'Message', type: 'textarea', required: true, help_text: '', options: [], section: '' },
    ],
    min_fill_seconds: 3,
    max_per_address_per_hour: 5,
  });
  const animal = data.animals[0]?.name ?? 'Biscuit';
  const subs = [
    {
      first_name: 'Hannah',
      last_name: 'Okafor',
      email: 'hannah.okafor@example.org',
      phone: '+14155550123',
      home_type: 'House',
      has_garden: true,
      other_pets: ['Cats'],
    },
    { first_name: 'Marco', last_name: 'Lindqvist', email: 'marco.l@example.org', home_type: 'Flat', has_garden: false, other_pets: [] },
  ];
  for (const [i, s] of subs.entries()) {
    await repo.insertSubmission(
      q,
      org.id,
      newId('fsb'),
      form.id,
      { ...s, animal_name: animal, about: 'Two adults, working from home.' },
      `seed-${i}`,
    );
  }
  const p = data.people[0];
  if (p) {
    const id = newId('fsb');
    await repo.insertSubmission(
      q,
      org.id,
      id,
      form.id,
      { first_name: p.first_name, last_name: p.last_name, email: p.email, home_type: 'House', animal_name: animal },
      'seed-p',
    );
    await repo.setSubmission(q, org.id, id, { status: 'converted', person_id: p.id, converted_at: new Date() });
  }
}
