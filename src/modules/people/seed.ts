import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { insertContact } from './contacts.ts';
import { getPerson, insertPerson } from './repository.ts';

/**
 * Sample depth: further contacts (a work email, a mobile, an opted-out landline), a dated old address, notes (one
 * pinned), a `do_not_adopt` flag (on the last sample person, whom no sample application names), and a likely
 * duplicate pair (the first sample person entered again with another email at the same address: same name and
 * postal code).
 */
export async function seedPeopleDepth(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const [a, b, c] = data.people;
  if (!a || !b || !c) return;
  const contact = (person_id: string, kind: string, value: string, label: string, preferred = false, opted_out = false) =>
    insertContact(q, org.id, { id: newId('pct'), person_id, kind, value, label, preferred, opted_out });
  await contact(a.id, 'email', `${a.first_name}.work@example.org`.toLowerCase(), 'work', true);
  await contact(a.id, 'phone', '+12125550199', 'mobile', true);
  await contact(b.id, 'phone', '+12125550188', 'landline', false, true);
  await contact(c.id, 'other', '@' + c.first_name.toLowerCase() + '_rescues', 'social');
  const place = { organization_id: org.id, person_id: a.id, city: 'Springfield', state: 'NY', country: 'US' };
  await kx(q)
    .insertInto('person_addresses')
    .values([
      {
        ...place,
        id: newId('pad'),
        kind: 'home',
        line1: '9 Old Mill Road',
        postal_code: '12999',
        valid_from: '2019-01-01',
        valid_until: '2023-06-30',
      },
      { ...place, id: newId('pad'), kind: 'mailing', line1: 'PO Box 77', postal_code: '12001', valid_from: null, valid_until: null },
    ])
    .execute();
  await kx(q)
    .insertInto('person_notes')
    .values([
      {
        organization_id: org.id,
        id: newId('pnt'),
        person_id: a.id,
        kind: 'warning',
        body: 'Prefers to be called after 6pm; works nights.',
        author: null,
        pinned: true,
      },
      {
        organization_id: org.id,
        id: newId('pnt'),
        person_id: a.id,
        kind: 'call',
        body: 'Called about fostering a second dog; will decide next week.',
        author: null,
        pinned: false,
      },
    ])
    .execute();
  await kx(q)
    .insertInto('person_flags')
    .values({
      organization_id: org.id,
      id: newId('pfl'),
      person_id: (data.people[data.people.length - 1] ?? c).id,
      flag: 'do_not_adopt',
      reason: 'Returned two dogs within a week in 2023.',
    })
    .execute();
  // A likely duplicate of the first person: same name, same postal code, another email.
  const first = await getPerson(q, org.id, a.id);
  if (first)
    await insertPerson(q, org.id, {
      id: newId('per'),
      first_name: first.first_name,
      last_name: first.last_name,
      email: `${first.first_name}.${first.last_name}.home@example.org`.toLowerCase(),
      phone: null,
      address: first.address,
      roles: ['donor'],
      tags: [],
      notes: null,
      time_zone: first.time_zone,
    });
}
