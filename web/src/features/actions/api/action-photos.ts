import type { ActionAttachment } from '@schemas/actions';
import type { AttachmentUpload, AttachmentUrl } from '@schemas/attachments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { actionKeys } from './get-actions';

function photosPath(orgId: string, actionId: string, ...rest: string[]) {
  return apiPath('orgs', orgId, 'actions', actionId, 'attachments', ...rest);
}

/** `POST …/actions/{id}/attachments`: checks role, state and the limit, then hands out a signed upload. */
export function createActionPhoto(orgId: string, actionId: string, body: { content_type: string; byte_size: number }) {
  return callApi<Omit<AttachmentUpload, 'attachment'> & { attachment: ActionAttachment }>(photosPath(orgId, actionId), {
    method: 'POST',
    body: { ...body },
  });
}

/** `POST …/attachments/{att}/confirm`: the server checks the stored bytes are the photo declared. */
export function confirmActionPhoto(orgId: string, actionId: string, attachmentId: string): Promise<ActionAttachment> {
  return callApi<ActionAttachment>(photosPath(orgId, actionId, attachmentId, 'confirm'), { method: 'POST' });
}

/** `DELETE …/attachments/{att}`: while the action is open or in progress. */
export function deleteActionPhoto(orgId: string, actionId: string, attachmentId: string): Promise<void> {
  return callApi<void>(photosPath(orgId, actionId, attachmentId), { method: 'DELETE' });
}

export function actionPhotoUrlQueryOptions(orgId: string, actionId: string, attachmentId: string) {
  return queryOptions({
    queryKey: actionKeys.photoUrl(orgId, attachmentId),
    queryFn: () => callApi<AttachmentUrl>(photosPath(orgId, actionId, attachmentId, 'url')),
    // Signed for an hour: fetch a fresh one well before it runs out.
    staleTime: 45 * 60_000,
    gcTime: 50 * 60_000,
  });
}

export function useActionPhotoUrl(orgId: string, actionId: string, attachmentId: string) {
  return useQuery(actionPhotoUrlQueryOptions(orgId, actionId, attachmentId));
}
