import type { Module } from '../../platform/context.ts';
import { peopleRoutesV1 } from './routes/v1-people.ts';
import { duplicateRoutes } from './routes/duplicates.ts';
import { mergeRoutes } from './routes/merges.ts';
import { similarRoutes } from './routes/similar.ts';
import { contactRoutes } from './routes/contacts.ts';
import { addressRoutes } from './routes/addresses.ts';
import { personRoutes } from './routes/person.ts';
import { noteRoutes } from './routes/notes.ts';
import { flagRoutes } from './routes/flags.ts';
import { tagRoutes } from './routes/tags.ts';
import { volunteerRoutes } from './routes/volunteer-status.ts';
import { seedPeopleDepth } from './seed.ts';
import './references.ts';

export const peopleModule: Module = {
  name: 'people',
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    peopleRoutesV1(app, ctx);
    duplicateRoutes(app, ctx);
    mergeRoutes(app, ctx);
    similarRoutes(app, ctx);
    contactRoutes(app, ctx);
    addressRoutes(app, ctx);
    personRoutes(app, ctx);
    noteRoutes(app, ctx);
    flagRoutes(app, ctx);
    tagRoutes(app, ctx);
    volunteerRoutes(app, ctx);
  },
  seed: seedPeopleDepth,
};
