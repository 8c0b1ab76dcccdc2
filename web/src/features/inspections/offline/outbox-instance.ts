import { ApiError, describeError } from '@/lib/errors';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import type { UploadError } from '@/lib/photo-upload';
import { queryClient } from '@/lib/query-client';
import { accessToken } from '@/lib/auth';
import { confirmAttachment, createAttachment } from '../api/attachments';
import { refetchInspection, storeAnswers } from '../api/get-inspection';
import { saveAnswers } from '../api/save-answers';
import type { Answer } from '../types';
import { Outbox, type OutboxFailure } from './outbox';
import { openOutboxStore } from './outbox-store';

// The upload's code (XMLHttpRequest with its progress) loads when a photo is first sent: the run
// page's first load carries none of it (docs/offline.md, "Weight"). A failed load is a transient
// failure, like any other with no answer: the photo waits and goes later.
const loadPhotoUpload = () => import('@/lib/photo-upload');

/** Storage's answer to an upload (lib/photo-upload.ts), told by its name: the class loads with the upload. */
function isUploadError(error: unknown): error is UploadError {
  return error instanceof Error && error.name === 'UploadError' && typeof (error as Partial<UploadError>).status === 'number';
}

/** What a failed api call means to the outbox: the catalogue code and status, or no answer at all. */
const UNREACHABLE = 'The server could not be reached from this device.';

function describe(error: unknown): OutboxFailure {
  if (isUploadError(error)) {
    return error.status === 0
      ? { code: null, status: null, message: UNREACHABLE, fieldErrors: {} }
      : { code: null, status: error.status, message: 'Storage refused the photo; it will be tried again.', fieldErrors: {} };
  }
  const failure = describeError(error);
  const status = error instanceof ApiError ? error.status : null;
  if (status === null) return { code: null, status: null, message: UNREACHABLE, fieldErrors: {} };
  const current = error instanceof ApiError ? (error.problem?.current as Answer[] | undefined) : undefined;
  return { code: failure.code ?? null, status, message: failure.message ?? Object.values(failure.fieldErrors)[0] ?? 'Something went wrong.', fieldErrors: failure.fieldErrors, current };
}

let instance: { userId: string; outbox: Promise<Outbox>; opened?: Outbox } | undefined;
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('fieldcheck-outbox') : null;

/**
 * The tab's outbox for the signed-in user, created on first use. Every tab of the app keeps its own
 * view of the one IndexedDB queue; one tab at a time sends (a Web Lock), and tabs tell each other
 * when the queue changed.
 */
export function outboxOf(userId: string): Promise<Outbox> {
  if (instance?.userId === userId) return instance.outbox;
  void instance?.outbox.then((previous) => previous.stop());
  const outbox = (async () => {
    const created = new Outbox(userId, {
      store: await openOutboxStore(),
      describe,
      isOnline: () => navigator.onLine,
      exclusive: async (pass) => {
        if (!navigator.locks) return (await pass(), true);
        return await navigator.locks.request('fieldcheck-outbox', { ifAvailable: true }, async (lock) => {
          if (!lock) return false;
          await pass();
          return true;
        });
      },
      newId: newIdempotencyKey,
      transport: {
        saveAnswers,
        checkInPhoto: (entry) =>
          createAttachment(entry.orgId, entry.inspectionId, { item_key: entry.itemKey, content_type: entry.contentType, byte_size: entry.blob.size }, entry.id),
        uploadPhoto: async (upload, blob, contentType, onProgress) => {
          const { uploadToSignedUrl } = await loadPhotoUpload();
          const token = await accessToken();
          try {
            await uploadToSignedUrl(upload, token ?? undefined, new Blob([blob], { type: contentType }), onProgress ?? (() => undefined));
            return 'uploaded';
          } catch (error) {
            // An earlier attempt's bytes arrived (its answer did not): the signed URL is spent on them.
            if (isUploadError(error) && (error.status === 409 || error.status === 400)) return 'already';
            throw error;
          }
        },
        confirmPhoto: (entry) => confirmAttachment(entry.orgId, entry.inspectionId, entry.attachmentId),
      },
      events: {
        onAnswersSaved: (orgId, inspectionId, saved) => {
          storeAnswers(queryClient, orgId, inspectionId, saved.answers, saved.inspection);
          channel?.postMessage('changed');
        },
        onPhotoSaved: (entry) => {
          void refetchInspection(queryClient, entry.orgId, entry.inspectionId);
          channel?.postMessage('changed');
        },
        onStale: (orgId, inspectionId) => void refetchInspection(queryClient, orgId, inspectionId),
      },
    });
    await created.load();
    return created;
  })();
  const opening: NonNullable<typeof instance> = { userId, outbox };
  instance = opening;
  void outbox.then((opened) => {
    opening.opened = opened;
  });
  return outbox;
}

/** The user's outbox if it is already open and loaded (opened ahead by the run page), else undefined. */
export function openedOutbox(userId: string): Outbox | undefined {
  return instance?.userId === userId ? instance.opened : undefined;
}

/** Wakes the outbox when sending may work again: the network is back, the page is looked at again. */
function wake() {
  void instance?.outbox.then((outbox) => outbox.retryNow());
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') wake();
  });
  // Another tab wrote to or sent from the queue: read it again.
  channel?.addEventListener('message', () => void instance?.outbox.then((outbox) => outbox.load()));
}
