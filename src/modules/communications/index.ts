import type { Module } from '../../platform/context.ts';

/** Communications (issue 3): templates, sending, message log, inboxes, conversations, suppressions. */
export const communicationsModule: Module = { name: 'communications', routes() {} };
