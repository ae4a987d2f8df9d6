import type { Module } from '../../platform/context.ts';

/** Volunteer shifts (issue 6): schedules, import, windows, bookings, volunteers, calendar. */
export const shiftsModule: Module = { name: 'shifts', routes() {} };
