import type { PhotoUpload } from '@/lib/photo-upload';
import { FormAlert } from './form-alert';
import './photos.css';

const stepWords = { requesting: 'Preparing', uploading: 'Uploading', confirming: 'Checking' } as const;

/** Photos on their way: a progress bar each (bytes sent), or what went wrong with a way to dismiss it. */
export function PhotoUploadProgress({ uploads, onDismiss }: { uploads: PhotoUpload[]; onDismiss: (id: string) => void }) {
  return (
    <>
      {uploads.map((upload) => (
        <div key={upload.id} className="photo-upload">
          {upload.step === 'failed' ? (
            <div className="photo-upload-failed">
              <FormAlert message={`${upload.fileName}: ${upload.error ?? ''}`} />
              <button type="button" className="button button-link" onClick={() => onDismiss(upload.id)}>
                Dismiss
              </button>
            </div>
          ) : (
            <label className="photo-progress">
              <span>
                {stepWords[upload.step]} {upload.fileName}…
              </span>
              {/* Indeterminate until the upload starts; then bytes sent, full while the api checks them. */}
              {upload.step === 'requesting' ? <progress /> : <progress max={upload.size} value={upload.step === 'confirming' ? upload.size : upload.sent} />}
            </label>
          )}
        </div>
      ))}
    </>
  );
}
