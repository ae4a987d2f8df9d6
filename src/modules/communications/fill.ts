import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import { maybeUse, slot } from '../../platform/hooks.ts';
import { invalid, missing, notFound } from '../../platform/errors.ts';
import { fillBlocks, fillText, mergeFieldsIn, recordMergeValues, textsOf, type Block, type FullBlock } from './blocks.ts';
import type { TemplateRow } from './templates.repository.ts';
import { submissionPerson } from '../forms/public.ts';
import { peopleContacts } from '../people/public.ts';
import { animalMergeFacts } from '../animals/public.ts';

export interface FillInput {
  person_id?: string;
  person_ids?: string[];
  animal_ids?: string[];
  related_entity_type?: 'animal' | 'adoption_application' | 'form_submission' | 'person';
  related_entity_id?: string;
  conversation_id?: string;
  variables?: Record<string, string | number | boolean>;
}
export interface Filled {
  template_id: string;
  template_key: string;
  template_version: number;
  subject: string;
  body_blocks: FullBlock[];
  unfilled: string[];
  person_id: string | null;
  person_ids: string[];
  related_entity_type: string | null;
  related_entity_id: string | null;
  animal_ids: string[];
}
interface PersonRec {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}
interface AnimalRec {
  id: string;
  name: string;
  species: string;
  breed: string | null;
  sex: string;
  microchip_number: string | null;
}

/** The applicant and the animals applied for of an adoption application; null when the id names none. */
export type ApplicationResolver = (q: Queryable, orgId: string, id: string) => Promise<{ person_id: string; animal_ids: string[] } | null>;
/** Provided by the adoptions module (Module.register, `hooks.provide(applicationResolver, fn)`). */
export const applicationResolver = slot<ApplicationResolver>('communications.application-resolver');

/** Live people by id, in the order asked (the people module's read). */
export async function peopleByIds(q: Queryable, orgId: string, ids: string[]): Promise<PersonRec[]> {
  return peopleContacts(q, orgId, ids);
}
async function animalsByIds(q: Queryable, orgId: string, ids: string[]): Promise<AnimalRec[]> {
  return animalMergeFacts(q, orgId, ids);
}

/** Values of the record merge fields (pure): names of several people fill as a list; a field with no value stays unfilled. */
export function recordValues(people: PersonRec[], animals: AnimalRec[], orgName: string): Record<string, string> {
  return recordMergeValues(people, animals, orgName);
}

/** Fills a template version from records; reads only. */
export async function fillTemplate(
  q: Queryable,
  org: { id: string; name: string },
  t: TemplateRow,
  input: FillInput,
  version?: { subject_template: string; body_template_blocks: Block[]; version: number },
): Promise<Filled> {
  if (t.status !== 'active') throw invalid({ id: [`the template is ${t.status}; only an active template can be filled`] });
  const orgId = org.id;
  if ((input.related_entity_type === undefined) !== (input.related_entity_id === undefined)) {
    throw missing([input.related_entity_type === undefined ? 'related_entity_type' : 'related_entity_id']);
  }
  let relType: string | null = input.related_entity_type ?? null;
  let relId: string | null = input.related_entity_id ?? null;
  let personIds = [...new Set([...(input.person_id ? [input.person_id] : []), ...(input.person_ids ?? [])])];
  const animalIds = [...new Set(input.animal_ids ?? [])];

  if (input.conversation_id) {
    const conv = await kx(q)
      .selectFrom('comm_conversations')
      .select(['person_id', 'person_confirmed', 'related_entity_type', 'related_entity_id'])
      .where('organization_id', '=', orgId)
      .where('id', '=', input.conversation_id)
      .executeTakeFirst();
    if (!conv) throw notFound('conversation');
    if (!personIds.length && !relType) {
      if (conv.person_id && conv.person_confirmed) personIds = [conv.person_id];
      if (conv.related_entity_type && conv.related_entity_id) {
        relType = conv.related_entity_type;
        relId = conv.related_entity_id;
      }
    }
  }

  const people = await peopleByIds(q, orgId, personIds);
  const lost = personIds.filter((id) => !people.some((p) => p.id === id));
  const firstLost = lost[0];
  if (firstLost !== undefined)
    throw invalid({
      [input.person_ids?.includes(firstLost) ? 'person_ids' : 'person_id']: [`names no person on file: ${lost.join(', ')}`],
    });

  if (relType && relId) {
    switch (relType) {
      case 'animal': {
        if (!(await animalsByIds(q, orgId, [relId])).length) throw notFound('animal');
        if (!animalIds.includes(relId)) animalIds.unshift(relId);
        break;
      }
      case 'person': {
        const rel = await peopleByIds(q, orgId, [relId]);
        if (!rel.length) throw notFound('person');
        if (!people.length) people.push(...rel);
        break;
      }
      // The adoptions module answers for its applications (see public.ts, fillFromApplications).
      case 'adoption_application': {
        const resolve = maybeUse(applicationResolver);
        const app = resolve ? await resolve(q, orgId, relId) : null;
        if (!app) throw notFound('adoption application');
        if (!people.length) people.push(...(await peopleByIds(q, orgId, [app.person_id])));
        for (const a of app.animal_ids) if (!animalIds.includes(a)) animalIds.push(a);
        break;
      }
      // A form submission fills the person it became (none yet: the person fields stay unfilled).
      case 'form_submission': {
        const sub = await submissionPerson(q, orgId, relId);
        if (!sub) throw notFound('form submission');
        if (sub.person_id && !people.length) people.push(...(await peopleByIds(q, orgId, [sub.person_id])));
        break;
      }
      default:
        throw invalid({ related_entity_type: ['is not a known record type'] });
    }
  }
  const animals = await animalsByIds(q, orgId, animalIds);
  const lostA = animalIds.filter((id) => !animals.some((a) => a.id === id));
  if (lostA.length) throw invalid({ animal_ids: [`names no animal on file: ${lostA.join(', ')}`] });

  const values = recordValues(people, animals, org.name);
  for (const [k, val] of Object.entries(input.variables ?? {})) values[k] = String(val);
  const subjectT = version?.subject_template ?? t.subject_template;
  const blocksT = version?.body_template_blocks ?? t.body_template_blocks;
  const subject = fillText(subjectT, values);
  const body = fillBlocks(blocksT, values);
  return {
    template_id: t.id,
    template_key: t.key,
    template_version: version?.version ?? t.version,
    subject,
    body_blocks: body,
    unfilled: mergeFieldsIn(textsOf(subjectT, blocksT)).filter((n) => !Object.hasOwn(values, n)),
    person_id: input.person_id ?? people[0]?.id ?? null,
    person_ids: people.map((p) => p.id),
    related_entity_type: relType,
    related_entity_id: relId,
    animal_ids: animals.map((a) => a.id),
  };
}
