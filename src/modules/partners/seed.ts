import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';

/** Sample partners: a vet clinic with a location and an affiliated vet, a shelter, a transport group. */
export async function seedPartners(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const vet = newId('ptn');
  await q.query(
    `INSERT INTO partners (organization_id, id, kind, name, contact_name, email, phone, website) VALUES
       ($1,$2,'vet','Maple Street Veterinary Clinic','Dr. Lena Ortiz','front@maplevet.example.org','+12125550140','https://maplevet.example.org'),
       ($1,$3,'shelter','Springfield County Animal Services','Intake desk','intake@scas.example.org','+12125550150',NULL),
       ($1,$4,'transport','Wheels for Paws','Sam Reed','rides@wheelsforpaws.example.org',NULL,NULL)`,
    [org.id, vet, newId('ptn'), newId('ptn')],
  );
  await q.query(
    `INSERT INTO partner_locations (organization_id, id, partner_id, name, line1, city, state, postal_code, country, phone, hours)
     VALUES ($1,$2,$3,'Main clinic','41 Maple Street','Springfield','NY','12010','US','+12125550141','Mon-Fri 8:00-18:00, Sat 9:00-13:00')`,
    [org.id, newId('plc'), vet],
  );
  const person = data.people.find((p) => p.roles.includes('vet')) ?? data.people[0];
  if (person)
    await q.query(
      `INSERT INTO partner_affiliations (organization_id, id, partner_id, person_id, role, valid_from)
       VALUES ($1,$2,$3,$4,'vet','2022-03-01')`,
      [org.id, newId('paf'), vet, person.id],
    );
}
