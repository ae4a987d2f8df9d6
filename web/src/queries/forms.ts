import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB } from './types';

/** The public forms' data hooks: forms, submissions and the people a submission may be, under keys from the factory. */
const page = { limit: 100, offset: 0 };

export type SubmissionStatus = NonNullable<FiltersB<'/api/forms/submissions'>['status']>;
export const SUBMISSION_STATUSES = ['new', 'converted', 'dismissed'] as const satisfies readonly SubmissionStatus[];

export const useForms = () =>
  useQuery({ queryKey: keys.forms.list, queryFn: () => ok(apiB.GET('/api/forms', { params: { query: page } })) });
/** One form (nothing while there is no id). */
export const useForm = (id: string | null | undefined) =>
  useQuery({
    queryKey: keys.forms.one(id),
    queryFn: () => ok(apiB.GET('/api/forms/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: !!id,
  });
/** Submissions of a form (any when undefined) in a status (any when undefined), 100 at most. */
export const useSubmissions = (formId: string | undefined, status: SubmissionStatus | undefined) =>
  useQuery({
    queryKey: keys.forms.submissions({ formId, status }),
    queryFn: () =>
      ok(
        apiB.GET('/api/forms/submissions', {
          params: { query: { ...page, ...(formId ? { form_id: formId } : {}), ...(status ? { status } : {}) } },
        }),
      ),
  });
/** One submission (nothing while there is no id, or `enabled` is false). */
export const useSubmission = (id: string | null, enabled = true) =>
  useQuery({
    queryKey: keys.forms.submission(id),
    queryFn: () => ok(apiB.GET('/api/forms/submissions/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: !!id && enabled,
  });
/** The people on file a submission may be; `enabled` false reads nothing. */
export const useSubmissionMatches = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.forms.matches(id),
    queryFn: () => ok(apiB.GET('/api/forms/submissions/{id}/matches', { params: { path: { id } } })),
    enabled,
  });
