import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { loadConfig } from '../../config.ts';
import { liveHoldAnimalIds, openStayId } from '../stays/public.ts';
import { getAnimal } from '../animals/public.ts';
import { createApplication, ensureDefaults, listStages, patchApplication } from './applications.service.ts';
import { finalize, returnAdoption, type Caller } from './adoptions.service.ts';
import { createTemplate, sendContract, sign } from './contracts.service.ts';
import { createCardTemplate, createSchedule } from './setup.service.ts';

/** The seed's one transaction, shaped as the services' database: their own transactions run inside it. */
function inTx(q: Queryable): Db {
  return { query: q.query.bind(q), prepared: q.prepared.bind(q), tx: <T>(fn: (x: Queryable) => Promise<T>) => fn(q) } as unknown as Db;
}

/**
 * Sample adoption pipeline: the default stages, a fee schedule with a promotion, a contract template, a cage card
 * template, applications at several stages, two finalized adoptions with signed contracts (one closing a competing
 * application) and one return.
 */
export async function seedAdoptions(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const db = inTx(q);
  const actor = 'seed';
  const c: Caller = {
    org,
    actor,
    principal: { keyId: 'seed', roleId: 'seed', roleName: 'seed', grants: {} },
    config: loadConfig(),
    isAdmin: true,
  };
  await ensureDefaults(db, org.id);
  const today = DateTime.now().setZone(org.time_zone);
  await createSchedule(
    db,
    org,
    {
      name: 'Standard fees',
      rules: [
        { name: 'Puppy', species: 'dog', max_age_weeks: 26, amount_minor: 35000 },
        { name: 'Adult dog', species: 'dog', min_age_weeks: 26, max_age_weeks: 364, amount_minor: 25000 },
        { name: 'Senior dog', species: 'dog', min_age_weeks: 364, amount_minor: 7500 },
        { name: 'Kitten', species: 'cat', max_age_weeks: 26, amount_minor: 15000 },
        { name: 'Adult cat', species: 'cat', amount_minor: 9000 },
        { name: 'Special needs', special_needs: true, amount_minor: 2500 },
        { name: 'Any other animal', amount_minor: 5000 },
      ],
      promotions: [
        {
          name: 'Adopt-a-cat month',
          species: 'cat',
          starts_on: today.minus({ days: 10 }).toISODate() as string,
          ends_on: today.plus({ days: 20 }).toISODate() as string,
          percent_off: 50,
        },
      ],
    },
    actor,
  );
  await createCardTemplate(db, org.id, { name: 'Kennel card', size: 'letter', show_qr: true }, actor);
  const tpl = await createTemplate(
    db,
    org.id,
    {
      name: 'Standard adoption contract',
      title: 'Adoption contract: {{animal_name}}',
      body: [
        'This contract is made on {{today}} between {{org_name}} and {{full_name}} ({{email}}), the adopter.',
        'The adopter takes ownership of {{animal_name}} ({{animal_species}}, {{animal_breed}}, {{animal_sex}}), ' +
          'microchip {{microchip}}, for an adoption fee of {{fee}}.',
        'Spay/neuter due: {{spay_neuter_due_on}}. The adopter will send proof of the surgery by that date.',
        'If the adopter can no longer keep the animal, it comes back to {{org_name}}: ' +
          'it is never sold, given away or rehomed by the adopter.',
      ].join('\n\n'),
    },
    actor,
  );

  // An adoption `daysAgo` days back, but never before the day after the animal's intake.
  const when = async (animalId: string, daysAgo: number) => {
    const intake = (await getAnimal(q, org.id, animalId))?.intake_date;
    const earliest = intake
      ? DateTime.fromISO(intake, { zone: org.time_zone }).plus({ days: 1, hours: 12 })
      : today.minus({ days: daysAgo });
    const at = DateTime.max(earliest, today.minus({ days: daysAgo }));
    return (at > today ? today : at).toUTC();
  };
  // Animals in care with no hold now nor at the sample adoption times.
  const free: string[] = [];
  for (const a of data.animals) {
    if (!(await openStayId(q, org.id, a.id))) continue;
    let held = false;
    for (const at of [undefined, (await when(a.id, 6)).toISO() as string, (await when(a.id, 12)).toISO() as string])
      if ((await liveHoldAnimalIds(q, org.id, [a.id], at)).length) held = true;
    if (!held) free.push(a.id);
  }
  const people = data.people.map((p) => p.id);
  const stages = await listStages(q, org.id);
  const stage = (name: string) => stages.find((s) => s.name === name)?.id as string;
  const apply = async (personId: string | undefined, animalId: string | undefined, stageName: string, reason?: string) => {
    if (!personId || !animalId) return null;
    const app = await createApplication(
      db,
      org,
      { person_id: personId, animal_ids: [animalId], notes: 'Applied online.' },
      actor,
      c.config.registrySecret,
    );
    if (stageName !== 'More info needed')
      await patchApplication(db, org.id, app.id, { stage_id: stage(stageName), ...(reason ? { decision_reason: reason } : {}) }, actor);
    return app.id;
  };
  const signed = async (applicationId: string, name: string) => {
    const sent = await sendContract(db, c, { application_id: applicationId, template_id: tpl.id, send_email: false });
    const token = new URL(sent.signing_url).pathname.split('/').pop() as string;
    await sign(db, org.id, token, {
      name,
      consent: true,
      document_sha256: sent.document_sha256,
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (sample)',
    });
    return sent.id;
  };
  const name = (id: string | undefined) => {
    const p = data.people.find((x) => x.id === id);
    return p ? `${p.first_name} ${p.last_name}` : 'Adopter';
  };

  // Two adoptions with signed contracts; the first closes a competing application, the second comes back.
  const [a0, a1, a2, a3] = free;
  const win = await apply(people[0], a0, 'Approved');
  await apply(people[1], a0, 'Pending home visit');
  if (win) {
    const contract = await signed(win, name(people[0]));
    await finalize(db, c, win, { contract_id: contract, occurred_at: (await when(a0 as string, 6)).toISO() as string });
  }
  const back = await apply(people[2], a1, 'Approved');
  if (back) {
    const contract = await signed(back, name(people[2]));
    const at = await when(a1 as string, 12);
    const done = await finalize(db, c, back, { contract_id: contract, occurred_at: at.toISO() as string });
    const adoption = done.results[0];
    const returned = DateTime.fromMillis((at.toMillis() + DateTime.now().toMillis()) / 2).toUTC();
    if (adoption) await returnAdoption(db, c, adoption.id, { reason: 'Landlord refused pets', occurred_at: returned.toISO() as string });
  }
  // Applications still being decided, and a denied one.
  await apply(people[3], a2, 'Pending vet check');
  await apply(people[4] ?? people[1], a3 ?? a2, 'More info needed');
  await apply(people[5] ?? people[3], a3 ?? a2, 'Denied', 'No landlord permission');
}
