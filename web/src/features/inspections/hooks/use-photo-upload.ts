import { MAX_PHOTO_BYTES, photoTypeOf } from '@schemas/attachments';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeErrorSentence } from '../../../lib/errors';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { supabase } from '../../../lib/supabase';
import { confirmAttachment, createAttachment, uploadToSignedUrl } from '../api/attachments';
import { refetchInspection } from '../api/get-inspection';

/** The photo's type by its first bytes, as the server checks it: a renamed file is caught before uploading. */
async function photoType(file: File) {
  return photoTypeOf(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
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

/**
 * Adds photos to an item: the api checks and hands out a signed upload URL, the file goes straight
 * to Storage, then the api checks the stored bytes and confirms it.
 */
export function usePhotoUpload(orgId: string, inspectionId: string, itemKey: string) {
  const queryClient = useQueryClient();
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
      const { attachment, upload } = await createAttachment(orgId, inspectionId, { item_key: itemKey, content_type: contentType, byte_size: file.size });
      set(id, { step: 'uploading' });
      const { data } = await supabase.auth.getSession();
      // Typed by its first bytes, so the stored object carries the type the server checks, not the file name's.
      const photo = new Blob([file], { type: contentType });
      try {
        await uploadToSignedUrl(upload, data.session?.access_token, photo, (sent, size) => set(id, { sent, size }));
      } catch {
        set(id, { step: 'failed', error: errorCatalogue.service_unavailable.title });
        return;
      }
      set(id, { step: 'confirming' });
      await confirmAttachment(orgId, inspectionId, attachment.id);
      setUploads((current) => current.filter((candidate) => candidate.id !== id));
    } catch (error) {
      set(id, { step: 'failed', error: describeErrorSentence(error) });
    } finally {
      void refetchInspection(queryClient, orgId, inspectionId);
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
