/**
 * What other modules may use of the medical module (it owns medical_items, medical_protocols,
 * medical_records, medical_due and animal_calendar_feeds).
 */
/** Run when an animal enters care (intake): makes the first due items of its species' protocols. */
export { applyProtocols } from './service.ts';
/** The animal calendar's sources: another area adds one with `calendarSources.push(fn)`. */
export { calendarSources, type CalendarSource, type CalendarWindow } from './calendar.ts';
/** The animal calendar's entries in a window (every source), for the organization calendar. */
export { calendarEntries } from './calendar.ts';
