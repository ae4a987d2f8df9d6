import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB } from './types';

/**
 * The communications domain's data hooks: the inbox of conversations, message templates and the message log, each
 * under a key from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

export type ConversationStatus = NonNullable<FiltersB<'/api/communications/conversations'>['status']>;
export type TemplateStatus = NonNullable<FiltersB<'/api/communications/templates'>['status']>;
export const TEMPLATE_STATUSES = ['active', 'draft', 'archived'] as const satisfies readonly TemplateStatus[];
type LogFilters = FiltersB<'/api/communications/messages'>;
export type MessageDirection = NonNullable<LogFilters['direction']>;
export type MessageStatus = NonNullable<LogFilters['status']>;
export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const satisfies readonly MessageDirection[];
export const MESSAGE_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'failed',
  'bounced',
  'received',
  'suppressed',
] as const satisfies readonly MessageStatus[];

/** Conversations in a status, 100 at most; `enabled` false reads nothing (no grant). */
export const useConversations = (status: ConversationStatus, enabled = true) =>
  useQuery({
    queryKey: keys.inbox.list(status),
    queryFn: () => ok(apiB.GET('/api/communications/conversations', { params: { query: { status, ...page } } })),
    enabled,
  });
/** One conversation with its messages. */
export const useConversation = (id: string) =>
  useQuery({
    queryKey: keys.inbox.conversation(id),
    queryFn: () => ok(apiB.GET('/api/communications/conversations/{id}', { params: { path: { id } } })),
  });

/** Templates in a status (any when undefined), 100 at most. */
export const useTemplates = (status: TemplateStatus | undefined) =>
  useQuery({
    queryKey: keys.templates.list(status ?? ''),
    queryFn: () => ok(apiB.GET('/api/communications/templates', { params: { query: { ...page, ...(status ? { status } : {}) } } })),
  });
/** One template; `enabled` false (a new one) reads nothing. */
export const useTemplate = (id: string, enabled = true) =>
  useQuery({
    queryKey: keys.templates.one(id),
    queryFn: () => ok(apiB.GET('/api/communications/templates/{id}', { params: { path: { id } } })),
    enabled,
  });
/** The template filled for a person (and an animal): what would be sent. Nothing is read until a template is chosen. */
export const useFilledTemplate = (template: string | null, personId: string, animalId: string | null) =>
  useQuery({
    queryKey: keys.templates.fill(template, personId, animalId),
    queryFn: () =>
      ok(
        apiB.POST('/api/communications/templates/{id}/fill', {
          params: { path: { id: template ?? '' } },
          body: { person_id: personId, ...(animalId ? { animal_ids: [animalId] } : {}) },
        }),
      ),
    enabled: !!template,
    retry: false,
  });

/** A page (50) of the message log from `offset`, by direction and status; the last page stays shown while the next loads. */
export const useMessageLog = (filters: Omit<LogFilters, never>, offset: number) =>
  useQuery({
    queryKey: keys.messages.log({ ...filters, offset }),
    queryFn: () => ok(apiB.GET('/api/communications/messages', { params: { query: { limit: 50, offset, ...filters } } })),
    placeholderData: keepPreviousData,
  });
