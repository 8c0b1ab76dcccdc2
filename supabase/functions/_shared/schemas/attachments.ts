// Attachments (`/orgs/{org}/inspections/{id}/attachments`): photo evidence on photo items.
// Shared by the api function and the web client, which can check a photo's type by its first
// bytes before uploading, exactly as the api checks it after (docs/product.md §5: photos by content).
import { z } from 'zod';
import { KEY_PATTERN } from './templates.ts';
import type { PhotoType } from './photos.ts';

// Photo limits, types and the first-bytes checks have no zod: the run page reads them on first load.
export * from './photos.ts';

/**
 * `POST …/attachments`. The type and size are checked by the handler, not here, because they
 * have their own errors (415, 413) rather than a field error.
 */
export const attachmentCreateSchema = z.strictObject({
  item_key: z.string({ error: 'Choose an item.' }).regex(KEY_PATTERN, { error: 'Choose an item.' }),
  content_type: z.string({ error: 'Give the photo type.' }).trim().toLowerCase().min(1, { error: 'Give the photo type.' }).max(255),
  byte_size: z
    .number({ error: 'Give the photo size in bytes.' })
    .int({ error: 'Give the photo size in bytes.' })
    .min(1, { error: 'The photo is empty.' }),
});

export type AttachmentCreate = z.infer<typeof attachmentCreateSchema>;

export interface Attachment {
  id: string;
  inspection_id: string;
  item_key: string;
  content_type: PhotoType;
  byte_size: number;
  status: 'pending' | 'confirmed';
  uploaded_by: string | null;
  created_at: string;
  confirmed_at: string | null;
}

/** The answer of `POST …/attachments`: pass `path` and `token` to supabase-js `uploadToSignedUrl`. */
export interface AttachmentUpload {
  attachment: Attachment;
  upload: { path: string; token: string; signed_url: string };
}

export interface AttachmentUrl {
  url: string;
  expires_at: string;
}
