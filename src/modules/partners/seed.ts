import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { kx } from '../../platform/db/kysely.ts';

/** Sample partners: a vet clinic with a location and an affiliated vet, a shelter, a transport group. */
export async function seedPartners(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const vet = newId('ptn');
  const k = kx(q);
  const partner = (
    id: string,
    kind: string,
    name: string,
    contact: string,
    email: string,
    phone: string | null,
    website: string | null,
  ) => ({
    organization_id: org.id,
    id,
    kind,
    name,
    contact_name: contact,
    email,
    phone,
    website,
  });
  await k
    .insertInto('partners')
    .values([
      partner(
        vet,
        'vet',
        'Maple Street Veterinary Clinic',
        'Dr. Lena Ortiz',
        'front@maplevet.example.org',
        '+12125550140',
        'https://maplevet.example.org',
      ),
      partner(
        newId('ptn'),
        'shelter',
        'Springfield County Animal Services',
        'Intake desk',
        'intake@scas.example.org',
        '+12125550150',
        null,
      ),
      partner(newId('ptn'), 'transport', 'Wheels for Paws', 'Sam Reed', 'rides@wheelsforpaws.example.org', null, null),
    ])
    .execute();
  await k
    .insertInto('partner_locations')
    .values({
      organization_id: org.id,
      id: newId('plc'),
      partner_id: vet,
      name: 'Main clinic',
      line1: '41 Maple Street',
      city: 'Springfield',
      state: 'NY',
      postal_code: '12010',
      country: 'US',
      phone: '+12125550141',
      hours: 'Mon-Fri 8:00-18:00, Sat 9:00-13:00',
    })
    .execute();
  const person = data.people.find((p) => p.roles.includes('vet')) ?? data.people[0];
  if (person)
    await k
      .insertInto('partner_affiliations')
      .values({ organization_id: org.id, id: newId('paf'), partner_id: vet, person_id: person.id, role: 'vet', valid_from: '2022-03-01' })
      .execute();
}
