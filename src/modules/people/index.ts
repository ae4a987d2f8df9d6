import type { Module } from '../../platform/context.ts';
import { peopleRoutesV1 } from './routes.v1.ts';
import { contactRoutes } from './contacts.routes.ts';
import { recordRoutes } from './records.routes.ts';
import { mergeRoutes } from './merge.routes.ts';
import { similarRoutes } from './similar.routes.ts';
import { tagRoutes } from './tags.routes.ts';
import { volunteerRoutes } from './volunteer.routes.ts';
import { seedPeopleDepth } from './seed.ts';
import './references.ts';

export const peopleModule: Module = {
  name: 'people',
  routes(app, ctx) {
    peopleRoutesV1(app, ctx);
    mergeRoutes(app, ctx);
    similarRoutes(app, ctx);
    contactRoutes(app, ctx);
    recordRoutes(app, ctx);
    tagRoutes(app, ctx);
    volunteerRoutes(app, ctx);
  },
  seed: seedPeopleDepth,
};
