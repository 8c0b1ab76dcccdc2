import type { ItemOfKind } from '@schemas/templates';
import { Camera } from 'lucide-react';
import { useState } from 'react';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PhotoUploadProgress } from '../../../components/ui/photo-upload-progress';
import { describeErrorSentence } from '../../../lib/errors';
import { useQueryClient } from '@tanstack/react-query';
import { deleteAttachment, useAttachmentUrl } from '../api/attachments';
import { refetchInspection } from '../api/get-inspection';
import { usePhotoUpload } from '../hooks/use-photo-upload';
import type { Attachment } from '../types';

interface PhotoEvidenceProps {
  orgId: string;
  inspectionId: string;
  item: ItemOfKind<'photo'>;
  attachments: Attachment[];
  editable: boolean;
}

function Thumbnail({ orgId, inspectionId, attachment, label }: { orgId: string; inspectionId: string; attachment: Attachment; label: string }) {
  const url = useAttachmentUrl(orgId, inspectionId, attachment.id);
  if (!url.data) return <span className="photo-thumb photo-thumb-loading" role="img" aria-label={`${label} (loading)`} />;
  return (
    <a href={url.data.url} target="_blank" rel="noopener noreferrer" className="photo-thumb-link">
      <img className="photo-thumb" src={url.data.url} alt={label} />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** Photos of a photo item: thumbnails, delete, and adding more with a progress bar. */
export function PhotoEvidence({ orgId, inspectionId, item, attachments, editable }: PhotoEvidenceProps) {
  const queryClient = useQueryClient();
  const { uploads, upload, dismiss } = usePhotoUpload(orgId, inspectionId, item.key);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const confirmed = attachments.filter((attachment) => attachment.status === 'confirmed');
  // A photo counts once its row exists (after 'requesting'); the server has the last word on the limit.
  const inUse = attachments.length + uploads.filter((upload) => upload.step === 'requesting').length;
  const full = inUse >= item.max_photos;

  async function remove(attachment: Attachment) {
    setDeleting(attachment.id);
    setError(undefined);
    try {
      await deleteAttachment(orgId, inspectionId, attachment.id);
    } catch (cause) {
      setError(describeErrorSentence(cause));
    } finally {
      setDeleting(null);
      void refetchInspection(queryClient, orgId, inspectionId);
    }
  }

  return (
    <div className="photos">
      {confirmed.length > 0 ? (
        <ul className="photo-list" aria-label={`Photos for ${item.label}`}>
          {confirmed.map((attachment, index) => (
            <li key={attachment.id} className="photo-list-item">
              <Thumbnail orgId={orgId} inspectionId={inspectionId} attachment={attachment} label={`Photo ${index + 1} of ${item.label}`} />
              {editable ? (
                <ConfirmButton
                  label={`Delete photo ${index + 1} of ${item.label}`}
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
        full ? (
          <p className="muted">This item holds up to {item.max_photos} {item.max_photos === 1 ? 'photo' : 'photos'}.</p>
        ) : (
          <label className="button button-secondary photo-add">
            <Camera aria-hidden="true" size={20} />
            Add photo<span className="visually-hidden"> to {item.label}</span>
            <input
              type="file"
              accept="image/*"
              capture="environment"
              className="visually-hidden"
              onChange={(event) => {
                const files = Array.from(event.target.files ?? []).slice(0, Math.max(0, item.max_photos - inUse));
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
