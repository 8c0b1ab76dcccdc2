import { useEffect, useRef, useState } from 'react';
import { describeErrorSentence } from '@/lib/errors';
import type { DownloadProgress } from '@/lib/download';
import type { QueryValue } from '@/lib/api';
import { Button } from './button';
import { FormAlert } from './form-alert';
import './download-button.css';

interface DownloadButtonProps {
  /** Path below the api function, e.g. `orgs/<id>/reports/inspections.csv`. */
  path: string;
  query?: Record<string, QueryValue>;
  fallbackName: string;
  children: string;
  variant?: 'primary' | 'secondary';
  /** Start at once: the button was pressed before this code had loaded (a page that loads it late). */
  startNow?: boolean;
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A button that downloads a file route (a CSV export, a PDF report), with its progress while it
 * comes — a bar against the size when the server announced it, the bytes so far when it streams —
 * a way to stop it, and what went wrong if it failed.
 */
export function DownloadButton({ path, query, fallbackName, children, variant = 'secondary', startNow = false }: DownloadButtonProps) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function start() {
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setDone(null);
    setProgress({ received: 0, total: null });
    try {
      // Loaded on the first press, so the pages that offer a download keep it out of their first load.
      const { downloadFile } = await import('@/lib/download');
      const name = await downloadFile(path, { query, fallbackName, onProgress: setProgress, signal: controller.signal });
      setDone(`Downloaded ${name}.`);
    } catch (caught) {
      if (!controller.signal.aborted) setError(describeErrorSentence(caught));
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  useEffect(() => {
    if (startNow) void start();
    // Once, when shown: the press that came before this code.
  }, []);

  return (
    <div className="download">
      {progress ? (
        <div className="download-progress" role="status">
          <label>
            <span>
              {progress.total
                ? `Downloading ${children.replace(/^(Download|Export) /, '')}: ${Math.floor((progress.received / progress.total) * 100)}%`
                : `Downloading ${children.replace(/^(Download|Export) /, '')}: ${size(progress.received)}`}
            </span>
            {progress.total ? <progress max={progress.total} value={progress.received} /> : <progress />}
          </label>
          <Button variant="link" onClick={() => abort.current?.abort()}>
            Stop
          </Button>
        </div>
      ) : (
        <Button variant={variant} onClick={() => void start()}>
          {children}
        </Button>
      )}
      {done ? <p className="muted download-done" role="status">{done}</p> : null}
      <FormAlert message={error ?? undefined} />
    </div>
  );
}
