import { accessToken } from './auth';
import { ApiError, problemOf } from './errors';
import { supabaseKey, supabaseUrl } from './supabase';
import type { QueryValue } from './api';

export interface DownloadProgress {
  /** Bytes received so far. */
  received: number;
  /** The whole size when the server announced it (a PDF); null while it streams (a CSV). */
  total: number | null;
}

/** The file name a `Content-Disposition` offers: the UTF-8 one (RFC 8187) when given, else the plain one. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // Fall through to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Downloads a file route of the `api` function (a CSV export, a PDF report), reporting bytes as
 * they arrive, then hands it to the browser as a download. Plain fetch rather than supabase-js,
 * whose invoke() reads the whole body before answering: a long export shows its progress.
 * A refusal is the API's problem document, thrown as an ApiError; `signal` cancels.
 */
export async function downloadFile(
  path: string,
  { query, fallbackName, onProgress, signal }: { query?: Record<string, QueryValue>; fallbackName: string; onProgress: (progress: DownloadProgress) => void; signal?: AbortSignal },
): Promise<string> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const headers: Record<string, string> = { apikey: supabaseKey };
  const token = await accessToken().catch(() => null);
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${supabaseUrl}/functions/v1/api/${path}${search.size > 0 ? `?${search}` : ''}`, { headers, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(null, null, null);
  }
  if (!response.ok) throw await problemOf(response);
  const total = Number(response.headers.get('content-length')) || null;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total });
  }
  const name = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
