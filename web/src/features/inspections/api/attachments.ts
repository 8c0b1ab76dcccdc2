import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Attachment, AttachmentCreate, AttachmentUpload, AttachmentUrl } from '@schemas/attachments';
import { inspectionKeys } from './get-inspections';

function attachmentsPath(orgId: string, inspectionId: string, ...rest: string[]) {
  return apiPath('orgs', orgId, 'inspections', inspectionId, 'attachments', ...rest);
}

/**
 * `POST …/attachments`: checks role, state, kind and the photo limit, then hands out a signed
 * upload. The outbox sends its entry's id as the Idempotency-Key, so a retry gets the same photo.
 */
export function createAttachment(
  orgId: string,
  inspectionId: string,
  body: AttachmentCreate,
  idempotencyKey?: string,
): Promise<AttachmentUpload> {
  return callApi<AttachmentUpload>(attachmentsPath(orgId, inspectionId), { method: 'POST', body: { ...body }, idempotencyKey });
}

/** `POST …/attachments/{att}/confirm`: the server checks the stored bytes are the photo declared. */
export function confirmAttachment(orgId: string, inspectionId: string, attachmentId: string): Promise<Attachment> {
  return callApi<Attachment>(attachmentsPath(orgId, inspectionId, attachmentId, 'confirm'), { method: 'POST' });
}

/** `DELETE …/attachments/{att}`: while the inspection is in progress. */
export function deleteAttachment(orgId: string, inspectionId: string, attachmentId: string): Promise<void> {
  return callApi<void>(attachmentsPath(orgId, inspectionId, attachmentId), { method: 'DELETE' });
}

/** `GET …/attachments/{att}/url`: a signed download URL, valid for an hour. */
export function getAttachmentUrl(orgId: string, inspectionId: string, attachmentId: string): Promise<AttachmentUrl> {
  return callApi<AttachmentUrl>(attachmentsPath(orgId, inspectionId, attachmentId, 'url'));
}

export function attachmentUrlQueryOptions(orgId: string, inspectionId: string, attachmentId: string) {
  return queryOptions({
    queryKey: inspectionKeys.attachmentUrl(orgId, attachmentId),
    queryFn: () => getAttachmentUrl(orgId, inspectionId, attachmentId),
    // Signed for an hour: fetch a fresh one well before it runs out.
    staleTime: 45 * 60_000,
    gcTime: 50 * 60_000,
  });
}

export function useAttachmentUrl(orgId: string, inspectionId: string, attachmentId: string) {
  return useQuery(attachmentUrlQueryOptions(orgId, inspectionId, attachmentId));
}
