import { MAX_PHOTO_BYTES, photoTypeOf } from '@schemas/photos';
import { errorCatalogue, formatWording } from '@schemas/errors';
import type { ItemOfKind } from '@schemas/templates';
import { useQueryClient } from '@tanstack/react-query';
import { Camera } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { deleteAttachment, useAttachmentUrl } from '../api/attachments';
import { refetchInspection } from '../api/get-inspection';
import type { PhotoEntry } from '../offline/outbox-store';
import type { Attachment } from '../types';
import '@/components/ui/photos.css';

export interface PhotoEvidenceProps {
  orgId: string;
  inspectionId: string;
  item: ItemOfKind<'photo'>;
  attachments: Attachment[];
  editable: boolean;
  /** This item's photos waiting on the device (the outbox). */
  queued: PhotoEntry[];
  sending: ReadonlySet<string>;
  progress: ReadonlyMap<string, { sent: number; total: number }>;
  online: boolean;
  onAdd: (files: { blob: Blob; contentType: string; fileName: string }[]) => Promise<void>;
  onDiscard: (id: string) => void;
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

/** A photo still on the device: shown from its own bytes. */
function LocalThumbnail({ blob, label }: { blob: Blob; label: string }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img className="photo-thumb" src={url} alt={label} />;
}

/**
 * Photos of a photo item: thumbnails and delete; new ones go to the device's outbox first (the file
 * itself) and upload from there, with their progress, when the network allows.
 */
export function PhotoEvidence(props: PhotoEvidenceProps) {
  const { orgId, inspectionId, item, attachments, editable, queued, sending, progress, online } = props;
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const confirmed = attachments.filter((attachment) => attachment.status === 'confirmed');
  // Queued photos count against the limit at once; the server has the last word.
  const inUse = confirmed.length + queued.filter((entry) => !entry.parked).length;
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

  async function add(files: File[]) {
    setError(undefined);
    const accepted: { blob: Blob; contentType: string; fileName: string }[] = [];
    const refused: string[] = [];
    for (const file of files) {
      // By its first bytes, as the server checks it: a renamed file is caught before it queues.
      const contentType = photoTypeOf(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
      if (!contentType) refused.push(`${file.name}: ${errorCatalogue.unsupported_media_type.title}`);
      else if (file.size > MAX_PHOTO_BYTES) refused.push(`${file.name}: ${formatWording(errorCatalogue.payload_too_large.title, { n: MAX_PHOTO_BYTES / (1024 * 1024) })}`);
      else accepted.push({ blob: file, contentType, fileName: file.name });
    }
    if (refused.length > 0) setError(refused.join(' '));
    await props.onAdd(accepted);
  }

  return (
    <div className="photos">
      {confirmed.length > 0 || queued.length > 0 ? (
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
          {queued.map((entry) => {
            const bytes = progress.get(entry.id);
            return (
              <li key={entry.id} className="photo-list-item photo-queued">
                <LocalThumbnail blob={entry.blob} label={`${entry.fileName} (not uploaded yet)`} />
                {entry.parked ? (
                  <div className="photo-upload-failed">
                    <FormAlert message={`${entry.fileName}: ${entry.error ?? ''}`} />
                    <button type="button" className="button button-link" onClick={() => props.onDiscard(entry.id)}>
                      Remove
                    </button>
                  </div>
                ) : sending.has(entry.id) ? (
                  <label className="photo-progress">
                    <span>Uploading {entry.fileName}…</span>
                    {bytes ? <progress max={bytes.total} value={bytes.sent} /> : <progress />}
                  </label>
                ) : (
                  <p className="muted">
                    {online ? (entry.attempts > 0 ? 'Not uploaded yet — will retry' : 'Waiting to upload') : 'On this device — will upload when online'}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">No photos yet.</p>
      )}
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
                void add(files);
              }}
            />
          </label>
        )
      ) : null}
    </div>
  );
}
