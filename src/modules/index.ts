import type { Module } from '../platform/context.ts';
import { settingsModule } from './settings/index.ts';
import { animalsModule } from './animals/index.ts';
import { peopleModule } from './people/index.ts';
import { donationsModule } from './donations/index.ts';
import { customFieldsModule } from './customfields/index.ts';
import { operationsModule } from './operations/index.ts';
import { staysModule } from './stays/index.ts';
import { careModule } from './care/index.ts';
import { fundraisingModule } from './fundraising/index.ts';
import { communicationsModule } from './communications/index.ts';
import { shiftsModule } from './shifts/index.ts';
import { medicalModule } from './medical/index.ts';
import { registryModule } from './registry/index.ts';
import { mediaModule } from './media/index.ts';
import { eventsModule } from './events/index.ts';
import { formsModule } from './forms/index.ts';
import { tasksModule } from './tasks/index.ts';
import { activityModule } from './activity/index.ts';
import { publicSiteModule } from './publicsite/index.ts';
import { membersModule } from './members/index.ts';
import { adoptionsModule } from './adoptions/index.ts';
import { integrationsModule } from './integrations/index.ts';
import { reportsModule } from './reports/index.ts';
import { partnersModule } from './partners/index.ts';
import { movingModule } from './moving/index.ts';

import { portalModule } from './portal/index.ts';

/** Every domain area, registered (and seeded) in this order. */
export const modules: Module[] = [
  settingsModule,
  animalsModule,
  peopleModule,
  partnersModule,
  donationsModule,
  customFieldsModule,
  operationsModule,
  medicalModule,
  staysModule,
  mediaModule,
  careModule,
  fundraisingModule,
  communicationsModule,
  shiftsModule,
  registryModule,
  eventsModule,
  formsModule,
  tasksModule,
  activityModule,
  publicSiteModule,
  membersModule,
  adoptionsModule,
  integrationsModule,
  reportsModule,
  movingModule,

  portalModule,
];
