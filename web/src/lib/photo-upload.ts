import { MAX_PHOTO_BYTES, photoTypeOf, type PhotoType } from '@schemas/photos';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { useState } from 'react';
import { describeErrorSentence } from './errors';
import { newIdempotencyKey } from './idempotency-key';
import { accessToken } from './auth';
import { supabaseKey, supabaseUrl } from './supabase';

/** The photo's type by its first bytes, as the server checks it: a renamed file is caught before uploading. */
async function photoType(file: File) {
  return photoTypeOf(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
}

/** Storage refused or never answered an upload; `status` 0 when it never answered. */
export class UploadError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'The upload could not reach Storage' : `Storage refused the upload: ${status}`);
    this.name = 'UploadError';
  }
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
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new UploadError(request.status)));
    request.onerror = () => reject(new UploadError(0));
    request.send(body);
  });
}

export type UploadStep = 'requesting' | 'uploading' | 'confirming' | 'failed';

export interface PhotoUpload {
  id: string;
  fileName: string;
  step: UploadStep;
  /** Bytes sent to Storage so far, out of the request's size (the photo, starting as its size). */
  sent: number;
  size: number;
  error?: string;
}

/** Where a photo goes: the api routes of one kind of photo (an inspection item's, an action's). */
export interface PhotoDestination {
  /** Checks the photo in: the api answers with the pending photo's id and a signed upload. */
  checkIn: (contentType: PhotoType, byteSize: number) => Promise<{ attachment: { id: string }; upload: { path: string; token: string } }>;
  /** Asks the api to check the stored bytes and confirm the photo. */
  confirm: (attachmentId: string) => Promise<unknown>;
  /** After each photo, confirmed or not: read the photos again. */
  onSettled: () => void;
}

/**
 * Adds photos: the api checks and hands out a signed upload URL, the file goes straight to
 * Storage, then the api checks the stored bytes and confirms it. Shared by inspection items and
 * corrective actions, which differ only in their routes.
 */
export function usePhotoUploads(destination: PhotoDestination) {
  const [uploads, setUploads] = useState<PhotoUpload[]>([]);

  function set(id: string, change: Partial<PhotoUpload>) {
    setUploads((current) => current.map((upload) => (upload.id === id ? { ...upload, ...change } : upload)));
  }

  async function uploadOne(file: File) {
    const id = newIdempotencyKey();
    setUploads((current) => [...current, { id, fileName: file.name, step: 'requesting', sent: 0, size: file.size }]);
    const contentType = await photoType(file);
    if (!contentType) return set(id, { step: 'failed', error: errorCatalogue.unsupported_media_type.title });
    if (file.size > MAX_PHOTO_BYTES) return set(id, { step: 'failed', error: formatWording(errorCatalogue.payload_too_large.title, { n: MAX_PHOTO_BYTES / (1024 * 1024) }) });
    try {
      const { attachment, upload } = await destination.checkIn(contentType, file.size);
      set(id, { step: 'uploading' });
      const token = await accessToken();
      // Typed by its first bytes, so the stored object carries the type the server checks, not the file name's.
      const photo = new Blob([file], { type: contentType });
      try {
        await uploadToSignedUrl(upload, token ?? undefined, photo, (sent, size) => set(id, { sent, size }));
      } catch {
        set(id, { step: 'failed', error: errorCatalogue.service_unavailable.title });
        return;
      }
      set(id, { step: 'confirming' });
      await destination.confirm(attachment.id);
      setUploads((current) => current.filter((candidate) => candidate.id !== id));
    } catch (error) {
      set(id, { step: 'failed', error: describeErrorSentence(error) });
    } finally {
      destination.onSettled();
    }
  }

  /** Uploads the chosen files one after another, in the order chosen. */
  async function upload(files: File[]) {
    for (const file of files) await uploadOne(file);
  }

  function dismiss(id: string) {
    setUploads((current) => current.filter((upload) => upload.id !== id));
  }

  return { uploads, upload, dismiss };
}
