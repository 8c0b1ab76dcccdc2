// Attachments (`/orgs/{org}/inspections/{id}/attachments`): photo evidence on photo items.
// Shared by the api function and the web client, which can check a photo's type by its first
// bytes before uploading, exactly as the api checks it after (docs/product.md §5: photos by content).
import { z } from 'zod';
import { KEY_PATTERN } from './templates.ts';
import { PHOTO_TYPES } from './photos.ts';

// Photo limits, types and the first-bytes checks have no zod: the run page reads them on first load.
export * from './photos.ts';

/**
 * What checking a photo in declares, for both photo kinds. The type and size are checked by the
 * handler, not here, because they have their own errors (415, 413) rather than a field error.
 */
export const photoCheckInFields = {
  content_type: z.string({ error: 'Give the photo type.' }).trim().toLowerCase().min(1, { error: 'Give the photo type.' }).max(255),
  byte_size: z
    .number({ error: 'Give the photo size in bytes.' })
    .int({ error: 'Give the photo size in bytes.' })
    .min(1, { error: 'The photo is empty.' }),
};

/** `POST …/inspections/{id}/attachments`: a photo of an item. */
export const attachmentCreateSchema = z.strictObject({
  item_key: z.string({ error: 'Choose an item.' }).regex(KEY_PATTERN, { error: 'Choose an item.' }),
  ...photoCheckInFields,
});

export type AttachmentCreate = z.infer<typeof attachmentCreateSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const photoTypeSchema = z.enum(PHOTO_TYPES).meta({ id: 'PhotoType' });

/** What both photo kinds (inspection photos, action photos) show of a photo: its state and who sent it. */
export const photoFields = {
  id: z.string(),
  content_type: photoTypeSchema,
  byte_size: z.number(),
  status: z.enum(['pending', 'confirmed']),
  uploaded_by: z.string().nullable(),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
};

/** Where to upload a photo checked in: pass `path` and `token` to supabase-js `uploadToSignedUrl`. */
export const photoUploadSchema = z.object({ path: z.string(), token: z.string(), signed_url: z.string() });

export const attachmentSchema = z.object({
  ...photoFields,
  inspection_id: z.string(),
  item_key: z.string(),
}).meta({ id: 'Attachment' });

export const attachmentUploadSchema = z.object({ attachment: attachmentSchema, upload: photoUploadSchema }).meta({
  id: 'AttachmentUpload',
  description: 'The answer of `POST …/attachments`: pass `path` and `token` to supabase-js `uploadToSignedUrl`.',
});

export const attachmentUrlSchema = z.object({ url: z.string(), expires_at: z.string() }).meta({ id: 'AttachmentUrl' });

export type PhotoUpload = z.output<typeof photoUploadSchema>;
export type Attachment = z.output<typeof attachmentSchema>;
export type AttachmentUpload = z.output<typeof attachmentUploadSchema>;
export type AttachmentUrl = z.output<typeof attachmentUrlSchema>;
