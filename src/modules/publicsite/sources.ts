/**
 * What the public website shows from areas built alongside it, wired in one place when they land. Each
 * source is null until its area provides it (all three are wired now), and the page then leaves that part out (it never invents data):
 *
 * - `fee`: the adoption fee of an animal (the adoptions area). Without it, no fee is shown anywhere
 *   (pages, feeds, syndication files).
 * - `events`: upcoming public events (the events area), shown on the home page.
 * - `forms`: addresses of the public forms (adoption application, foster and volunteer sign-up; the forms
 *   area), linked from the home page and the animal page.
 *
 * To wire one, the lead assigns it in this module's index.ts (or the owning module's public.ts is imported
 * here), e.g. `sources.fee = (q, orgId, id) => adoptionFee(q, orgId, id)`.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { currentAdoptionFee } from '../adoptions/public.ts';
import { eventsBetween } from '../events/public.ts';
import { publishedFormLinks } from '../forms/public.ts';

export interface Fee {
  amount_minor: number;
  currency: string;
}
export interface PublicEvent {
  title: string;
  starts_at: Date;
  location: string | null;
  url: string | null;
}
export interface FormLinks {
  adopt?: string;
  foster?: string;
  volunteer?: string;
}

export const sources: {
  fee: ((q: Queryable, orgId: string, animalId: string) => Promise<Fee | null>) | null;
  events: ((q: Queryable, orgId: string, limit: number) => Promise<PublicEvent[]>) | null;
  forms: ((q: Queryable, orgId: string, animalId?: string) => Promise<FormLinks>) | null;
} = {
  fee: (q, orgId, animalId) => currentAdoptionFee(q, orgId, animalId),
  // Published events that have not ended, soonest first; a free address is shown, a place named by id is not.
  events: async (q, orgId, limit) => {
    const now = new Date();
    const rows = await eventsBetween(q, orgId, now, new Date(now.getTime() + 366 * 86_400_000), limit, true);
    return rows.map((e) => ({ title: e.title, starts_at: e.starts_at, location: e.location?.address ?? null, url: null }));
  },
  forms: (q, orgId) => publishedFormLinks(q, orgId),
};
