import { useQueryClient } from '@tanstack/react-query';
import { usePhotoUploads } from '../../../lib/photo-upload';
import { confirmAttachment, createAttachment } from '../api/attachments';
import { refetchInspection } from '../api/get-inspection';

/** Adds photos to an inspection item (lib/photo-upload.ts does the steps). */
export function usePhotoUpload(orgId: string, inspectionId: string, itemKey: string) {
  const queryClient = useQueryClient();
  return usePhotoUploads({
    checkIn: (content_type, byte_size) => createAttachment(orgId, inspectionId, { item_key: itemKey, content_type, byte_size }),
    confirm: (attachmentId) => confirmAttachment(orgId, inspectionId, attachmentId),
    onSettled: () => void refetchInspection(queryClient, orgId, inspectionId),
  });
}
