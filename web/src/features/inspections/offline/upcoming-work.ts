import type { Page } from '@schemas/common';
import type { Role } from '@schemas/roles';
import type { QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { attachmentUrlQueryOptions } from '../api/attachments';
import type { inspectionQueryOptions } from '../api/get-inspection';
import type { Inspection } from '../types';

/**
 * The reads the run page keeps its data under, passed in by the run page's chunk (which has them):
 * importing them here would split them out of that chunk and make its first load heavier.
 */
export interface UpcomingWorkReads {
  inspection: typeof inspectionQueryOptions;
  attachmentUrl: typeof attachmentUrlQueryOptions;
}

// Issue 23: an inspector's work is on the device before they reach the basement. While online, the
// open inspections assigned to them or to nobody (which they may claim), due within the next week
// (or, assigned to them, with no due date), are read in the background with their template version,
// answers and photo links, and the photos themselves go to the service worker's thumbnail cache.
// The device's cache (lib/query-persistence.ts) then keeps them across reloads.
export const UPCOMING_DAYS = 7;
/** Per organization: the soonest due first. Each is one read of ~10–60 KB; the device keeps them for a week. */
export const UPCOMING_LIMIT = 25;
const PHOTO_LIMIT = 100;
/** How often the background read runs while the app is open and online. */
const REFRESH_MS = 10 * 60_000;
/** An inspection read this recently is not read again. */
const FRESH_MS = 5 * 60_000;

const OPEN_STATUSES = 'scheduled,in_progress,changes_requested';
const CAN_ANSWER: ReadonlySet<Role> = new Set(['owner', 'admin', 'manager', 'inspector']);

function listInspections(orgId: string, query: Record<string, string>): Promise<Page<Inspection>> {
  return callApi<Page<Inspection>>(apiPath('orgs', orgId, 'inspections'), { query: { limit: '100', ...query } });
}

/** The inspections of one organization the user is expected to work on soon, soonest due first. */
export async function upcomingInspections(orgId: string, userId: string, now = Date.now()): Promise<Inspection[]> {
  const horizon = now + UPCOMING_DAYS * 24 * 60 * 60_000;
  const dueBefore = new Date(horizon).toISOString();
  const [mine, claimable] = await Promise.all([
    listInspections(orgId, { assignee_id: userId, status: OPEN_STATUSES }),
    listInspections(orgId, { assignee_id: 'none', status: OPEN_STATUSES, due_before: dueBefore }),
  ]);
  const due = (inspection: Inspection) => (inspection.due_at ? Date.parse(inspection.due_at) : Number.POSITIVE_INFINITY);
  return [...mine.data.filter((inspection) => due(inspection) < horizon || inspection.due_at === null), ...claimable.data]
    .sort((a, b) => due(a) - due(b))
    .slice(0, UPCOMING_LIMIT);
}

/** Reads each upcoming inspection (and its photos) into the cache; one at a time, in the background. */
export async function fetchUpcomingWork(queryClient: QueryClient, memberships: { org_id: string; role: Role }[], userId: string, reads: UpcomingWorkReads): Promise<void> {
  let photos = 0;
  for (const membership of memberships) {
    if (!CAN_ANSWER.has(membership.role)) continue;
    const inspections = await upcomingInspections(membership.org_id, userId);
    for (const inspection of inspections) {
      if (!navigator.onLine) return;
      const detail = await queryClient.fetchQuery({ ...reads.inspection(membership.org_id, inspection.id), staleTime: FRESH_MS });
      for (const attachment of detail.attachments) {
        if (attachment.status !== 'confirmed' || photos >= PHOTO_LIMIT) continue;
        photos += 1;
        const { url } = await queryClient.fetchQuery(reads.attachmentUrl(membership.org_id, inspection.id, attachment.id));
        // Through the service worker, whose thumbnail cache keeps it (web/vite.config.ts): an opaque
        // answer is enough for an <img>, and a photo that fails to come is only a missing thumbnail.
        await fetch(url, { mode: 'no-cors' }).catch(() => undefined);
      }
    }
  }
}

let running: Promise<void> | undefined;

/**
 * Keeps the user's upcoming work on the device: now, then every ten minutes and whenever the network
 * comes back, while the app is open. Returns the function that stops it.
 */
export function keepUpcomingWork(queryClient: QueryClient, memberships: { org_id: string; role: Role }[], userId: string, reads: UpcomingWorkReads): () => void {
  let stopped = false;
  const run = () => {
    if (stopped || running || !navigator.onLine) return;
    running = fetchUpcomingWork(queryClient, memberships, userId, reads)
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, REFRESH_MS);
  window.addEventListener('online', run);
  return () => {
    stopped = true;
    clearInterval(timer);
    window.removeEventListener('online', run);
  };
}
