import type { Queryable } from '../../platform/db/db.ts';
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
  await q.query(
    `INSERT INTO person_addresses (organization_id, id, person_id, kind, line1, city, state, postal_code, country, valid_from, valid_until)
     VALUES ($1,$2,$3,'home','9 Old Mill Road','Springfield','NY','12999','US','2019-01-01','2023-06-30'),
            ($1,$4,$3,'mailing','PO Box 77','Springfield','NY','12001','US',NULL,NULL)`,
    [org.id, newId('pad'), a.id, newId('pad')],
  );
  await q.query(
    `INSERT INTO person_notes (organization_id, id, person_id, kind, body, author, pinned) VALUES
       ($1,$2,$3,'warning','Prefers to be called after 6pm; works nights.',NULL,true),
       ($1,$4,$3,'call','Called about fostering a second dog; will decide next week.',NULL,false)`,
    [org.id, newId('pnt'), a.id, newId('pnt')],
  );
  await q.query(
    `INSERT INTO person_flags (organization_id, id, person_id, flag, reason)
     VALUES ($1,$2,$3,'do_not_adopt','Returned two dogs within a week in 2023.')`,
    [org.id, newId('pfl'), (data.people[data.people.length - 1] ?? c).id],
  );
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
