import type { ActionAttachment } from '@schemas/actions';
import { MAX_ACTION_PHOTOS } from '@schemas/action-states';
import { useQueryClient } from '@tanstack/react-query';
import { Camera } from 'lucide-react';
import { useState } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { PhotoUploadProgress } from '@/components/ui/photo-upload-progress';
import { describeErrorSentence } from '@/lib/errors';
import { usePhotoUploads } from '@/lib/photo-upload';
import { confirmActionPhoto, createActionPhoto, deleteActionPhoto, useActionPhotoUrl } from '../api/action-photos';
import { refreshAction } from '../api/get-action';
import '@/components/ui/photos.css';

interface ActionPhotosProps {
  orgId: string;
  actionId: string;
  attachments: ActionAttachment[];
  /** Photos change while the action is open or in progress, by whoever works it. */
  editable: boolean;
}

function Thumbnail({ orgId, actionId, attachment, label }: { orgId: string; actionId: string; attachment: ActionAttachment; label: string }) {
  const url = useActionPhotoUrl(orgId, actionId, attachment.id);
  if (!url.data) return <span className="photo-thumb photo-thumb-loading" role="img" aria-label={`${label} (loading)`} />;
  return (
    <a href={url.data.url} target="_blank" rel="noopener noreferrer" className="photo-thumb-link">
      <img className="photo-thumb" src={url.data.url} alt={label} />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** Evidence of the fix: thumbnails, and adding or removing photos while the action is being worked. */
export function ActionPhotos({ orgId, actionId, attachments, editable }: ActionPhotosProps) {
  const queryClient = useQueryClient();
  const refresh = () => void refreshAction(queryClient, orgId, actionId);
  const { uploads, upload, dismiss } = usePhotoUploads({
    checkIn: (content_type, byte_size) => createActionPhoto(orgId, actionId, { content_type, byte_size }),
    confirm: (attachmentId) => confirmActionPhoto(orgId, actionId, attachmentId),
    onSettled: refresh,
  });
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const confirmed = attachments.filter((attachment) => attachment.status === 'confirmed');
  const inUse = attachments.length + uploads.filter((item) => item.step === 'requesting').length;

  async function remove(attachment: ActionAttachment) {
    setDeleting(attachment.id);
    setError(undefined);
    try {
      await deleteActionPhoto(orgId, actionId, attachment.id);
    } catch (cause) {
      setError(describeErrorSentence(cause));
    } finally {
      setDeleting(null);
      refresh();
    }
  }

  return (
    <div className="photos">
      {confirmed.length > 0 ? (
        <ul className="photo-list" aria-label="Photos of the fix">
          {confirmed.map((attachment, index) => (
            <li key={attachment.id} className="photo-list-item">
              <Thumbnail orgId={orgId} actionId={actionId} attachment={attachment} label={`Photo ${index + 1} of the fix`} />
              {editable ? (
                <ConfirmButton
                  label={`Delete photo ${index + 1}`}
                  question="Delete this photo?"
                  confirmText="Yes, delete"
                  pending={deleting === attachment.id}
                  onConfirm={() => void remove(attachment)}
                >
                  Delete
                </ConfirmButton>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No photos yet.</p>
      )}
      <PhotoUploadProgress uploads={uploads} onDismiss={dismiss} />
      <FormAlert message={error} />
      {editable ? (
        inUse >= MAX_ACTION_PHOTOS ? (
          <p className="muted">An action holds up to {MAX_ACTION_PHOTOS} photos.</p>
        ) : (
          <label className="button button-secondary photo-add">
            <Camera aria-hidden="true" size={20} />
            Add photo<span className="visually-hidden"> of the fix</span>
            <input
              type="file"
              accept="image/*"
              capture="environment"
              className="visually-hidden"
              onChange={(event) => {
                const files = Array.from(event.target.files ?? []).slice(0, Math.max(0, MAX_ACTION_PHOTOS - inUse));
                event.target.value = '';
                void upload(files);
              }}
            />
          </label>
        )
      ) : null}
    </div>
  );
}
