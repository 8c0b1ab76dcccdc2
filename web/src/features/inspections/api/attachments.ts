import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '../../../lib/api';
import { supabaseKey, supabaseUrl } from '../../../lib/supabase';
import type { Attachment, AttachmentCreate, AttachmentUpload, AttachmentUrl } from '@schemas/attachments';
import { inspectionKeys } from './get-inspections';

function attachmentsPath(orgId: string, inspectionId: string, ...rest: string[]) {
  return apiPath('orgs', orgId, 'inspections', inspectionId, 'attachments', ...rest);
}

/** `POST …/attachments`: checks role, state, kind and the photo limit, then hands out a signed upload. */
export function createAttachment(
  orgId: string,
  inspectionId: string,
  body: AttachmentCreate,
): Promise<AttachmentUpload> {
  return callApi<AttachmentUpload>(attachmentsPath(orgId, inspectionId), { method: 'POST', body: { ...body } });
}

/**
 * PUTs the photo to the signed upload URL as supabase-js's `uploadToSignedUrl` does (multipart,
 * `cacheControl` then the file under an empty field name, `x-upsert: false`; the token authorizes),
 * but with XMLHttpRequest because fetch reports no upload progress and the bar should show bytes sent.
 * The URL is built from this client's project URL, as supabase-js builds it, not taken from the
 * api's `signed_url`: a function may know the project by an address browsers can't reach.
 */
export function uploadToSignedUrl(
  upload: { path: string; token: string },
  accessToken: string | undefined,
  photo: Blob,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const body = new FormData();
  body.append('cacheControl', '3600');
  body.append('', photo);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const url = new URL(`${supabaseUrl}/storage/v1/object/upload/sign/evidence/${upload.path}`);
    url.searchParams.set('token', upload.token);
    request.open('PUT', url);
    request.setRequestHeader('apikey', supabaseKey);
    request.setRequestHeader('x-upsert', 'false');
    if (accessToken) request.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300 ? resolve() : reject(new Error(`Storage refused the upload: ${request.status}`));
    request.onerror = () => reject(new Error('The upload could not reach Storage'));
    request.send(body);
  });
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
