import type { Module } from '../../platform/context.ts';
import { registerPersonReferences } from '../people/public.ts';
import { partnerRoutes } from './routes/partners.ts';
import { seedPartners } from './seed.ts';

/** Outside organizations: partners, their locations and affiliated people. */
export const partnersModule: Module = {
  name: 'partners',
  register() {
    registerPersonReferences('partners', 'partner_affiliations', ['person_id']);
  },
  routes: partnerRoutes,
  seed: seedPartners,
};
