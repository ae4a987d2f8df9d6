import type { Module } from '../../platform/context.ts';
import { catalogueRoutes } from './routes/reports.ts';
import { sacRoutes } from './routes/sac.ts';
import { liveReleaseRateRoutes } from './routes/live-release-rate.ts';
import { intakeOutcomeRoutes } from './routes/intakes-outcomes.ts';
import { lengthOfStayRoutes } from './routes/length-of-stay.ts';
import { inCareRoutes } from './routes/in-care.ts';
import { medicalDueRoutes } from './routes/medical-due.ts';
import { vaccinationRoutes } from './routes/vaccinations.ts';
import { fosterHomeRoutes } from './routes/foster-homes.ts';
import { adoptionRoutes } from './routes/adoptions.ts';
import { donationRoutes } from './routes/donations.ts';
import { volunteerHourRoutes } from './routes/volunteer-hours.ts';
import { messageDeliveryRoutes } from './routes/message-delivery.ts';
import { scheduleRoutes } from './routes/schedules.ts';

/** Reports: the Shelter Animals Count matrix, live release rate, and the everyday reports, in four formats. */
export const reportsModule: Module = {
  name: 'reports',
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    catalogueRoutes(app, ctx);
    sacRoutes(app, ctx);
    liveReleaseRateRoutes(app, ctx);
    intakeOutcomeRoutes(app, ctx);
    lengthOfStayRoutes(app, ctx);
    inCareRoutes(app, ctx);
    medicalDueRoutes(app, ctx);
    vaccinationRoutes(app, ctx);
    fosterHomeRoutes(app, ctx);
    adoptionRoutes(app, ctx);
    donationRoutes(app, ctx);
    volunteerHourRoutes(app, ctx);
    messageDeliveryRoutes(app, ctx);
    scheduleRoutes(app, ctx);
  },
};
