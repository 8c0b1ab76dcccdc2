import { isId } from '@schemas/ids';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { Link, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { apiPath } from '@/lib/api';
import { LoadingScreen } from '@/components/ui/loading-screen';
import type { Action } from '@schemas/actions';
import { canManageActions, canOpenActions } from '@schemas/action-states';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { actionsQueryOptions, NO_ACTION_FILTERS, useActions, type ActionFilters } from '@/features/actions/api/get-actions';
import { ItemActions } from '@/features/actions/components/item-actions';
import { useInspection } from '@/features/inspections/api/get-inspection';
import { useAllPages } from '@/features/inspections/hooks/use-all-pages';
import { InspectionRun, type ItemActionsRenderer } from '@/features/inspections/components/inspection-run';
import { meQueryOptions, useMe } from '@/features/profile/api/get-me';
import { currentSession } from '@/lib/auth';
import { prepareDateFormats } from '@/lib/format';
import { queryClient } from '@/lib/query-client';
import { describeError } from '@/lib/errors';
import { useOrgRoute } from '../org-context';
import type { Choice } from '../use-member-choices';
import { QueryError } from '@/components/ui/query-error';
import { isWaitingForNetwork, NotOnDevice } from '@/components/ui/not-on-device';
import { whenSupabaseLoads } from '@/lib/supabase';
import { onFirstInteractionOr } from '@/lib/first-interaction';
import { outboxOf } from '@/features/inspections/offline/outbox-instance';
import { attachmentUrlQueryOptions } from '@/features/inspections/api/attachments';
import { inspectionQueryOptions } from '@/features/inspections/api/get-inspection';
import type { QueryClient } from '@tanstack/react-query';
import type { Role } from '@schemas/roles';

// The run page's offline work, done from any screen (app/offline-work.ts), comes with this chunk.

/** Sends what waits in the user's outbox now, without waiting out a backoff. */
export async function sendWaitingChanges(userId: string): Promise<void> {
  (await outboxOf(userId)).retryNow();
}

/** Keeps the user's upcoming work on the device (features/inspections/offline/upcoming-work.ts). */
export async function keepUpcomingWork(queryClient: QueryClient, memberships: { org_id: string; role: Role }[], userId: string): Promise<() => void> {
  const { keepUpcomingWork: keep } = await import('@/features/inspections/offline/upcoming-work');
  return keep(queryClient, memberships, userId, { inspection: inspectionQueryOptions, attachmentUrl: attachmentUrlQueryOptions });
}

/** Issue 23: the wording when an inspection was never opened here and the network is gone. */
export const inspectionNotOnDevice = "This inspection hasn't been opened on this device yet. Connect to the internet to open it.";

let runPageCodeLoading: Promise<unknown> | undefined;

/** Loads the run page's later code after supabase-js (which loads once the page is quiet: lib/auth.ts), online only. */
function useRunPageCode() {
  useEffect(() => {
    let current = true;
    whenSupabaseLoads(() => {
      if (!current || runPageCodeLoading || !navigator.onLine) return;
      runPageCodeLoading = import('./inspection-detail-code').then(({ loadRunPageCode }) => loadRunPageCode()).then((results) => {
        // A part that failed (the network dropped meanwhile) is tried again on the next visit.
        if (results.some((result) => result.status === 'rejected')) runPageCodeLoading = undefined;
      });
    });
    return () => {
      current = false;
    };
  }, []);
}

const inspectionNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'inspection' });

/** The inspection's actions, as the page lists them beside its items. */
const actionFiltersOf = (inspectionId: string): ActionFilters => ({ ...NO_ACTION_FILTERS, inspectionId });

/**
 * The page opened from its address (app/router.tsx): the inspection and its actions are asked for
 * as soon as the organization's id is known from `/me`, instead of once the layouts have rendered
 * with it — and the actions beside the inspection rather than after it, so the page usually renders
 * once with both. The page's own queries then find them under the same keys, and its autosave the
 * outbox open.
 */
export function prefetchData(params: { org?: string; inspectionId?: string }): void {
  const { org: slug, inspectionId = '' } = params;
  const session = currentSession();
  if (!session || !isId(inspectionId)) return;
  // The outbox (IndexedDB) opens meanwhile, so the page's first render already has it, and the
  // date formats are made in a task of their own (the page shows when it was started and is due).
  void outboxOf(session.user.id).catch(() => undefined);
  setTimeout(prepareDateFormats, 0);
  queryClient.fetchQuery(meQueryOptions()).then(
    (me) => {
      const membership = me.memberships.find((candidate) => candidate.org_slug === slug);
      if (!membership) return;
      void queryClient.prefetchQuery(inspectionQueryOptions(membership.org_id, inspectionId));
      void queryClient.prefetchInfiniteQuery(actionsQueryOptions(membership.org_id, actionFiltersOf(inspectionId)));
    },
    () => undefined,
  );
}

/** `/o/:org/inspections/:inspectionId`: the run page (answer, submit) and the review page. */
export function InspectionDetailRoute() {
  const { inspectionId = '' } = useParams();
  const validId = isId(inspectionId);
  return validId ? <InspectionDetail inspectionId={inspectionId} /> : <InspectionNotFound />;
}

// A manager's choice of assignees (the members list) loads beside the page, not in its first load.
const AssigneeChoices = lazy(() => import('./inspection-detail-assignees').then((module) => ({ default: module.AssigneeChoices })));

// The download's code (progress, errors, saving the file) is not part of the run page's first
// load (tests/e2e/weight.test.ts): it loads when the button is first pressed, and then starts.
const DownloadButton = lazy(() => import('@/components/ui/download-button').then((module) => ({ default: module.DownloadButton })));

/** "Download PDF": a plain button until pressed; then the download button, started at once. */
function PdfDownload({ path }: { path: string }) {
  const [pressed, setPressed] = useState(false);
  const waiting = (
    <Button variant="secondary" pending={pressed} onClick={() => setPressed(true)}>
      Download PDF
    </Button>
  );
  if (!pressed) return waiting;
  return (
    <Suspense fallback={waiting}>
      <DownloadButton path={path} fallbackName="inspection-report.pdf" startNow>
        Download PDF
      </DownloadButton>
    </Suspense>
  );
}

function InspectionNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={inspectionNotFound} description={membership.org_name}>
      <Link to={`/o/${membership.org_slug}/inspections`}>Back to inspections</Link>
    </ContentLayout>
  );
}

function InspectionDetail({ inspectionId }: { inspectionId: string }) {
  const { membership, userId } = useOrgRoute();
  const me = useMe();
  const inspection = useInspection(membership.org_id, inspectionId);
  // The inspection's actions, once: beside each item and in the failed-items summary; live by org-live-updates.
  const actions = useActions(membership.org_id, actionFiltersOf(inspectionId), { enabled: inspection.isSuccess });
  // An inspection of many failed items has more than a page of them: every one is shown.
  useAllPages(actions);
  // Who an action can be given to: only a manager chooses, and only once they open a form.
  const [assignees, setAssignees] = useState<Choice[]>([]);
  const actionsByItem = useMemo(() => {
    const map = new Map<string, Action[]>();
    for (const action of actions.data?.pages.flatMap((page) => page.data) ?? []) {
      if (action.item_key) map.set(action.item_key, [...(map.get(action.item_key) ?? []), action]);
    }
    return map;
  }, [actions.data]);
  // The same function until what it shows changes: the run page (memo) renders again only then.
  const { org_id: orgId, org_slug: orgSlug, role } = membership;
  const itemActions = useCallback<ItemActionsRenderer>(
    (item, suggestedTitle, place) => (
      <ItemActions
        orgId={orgId}
        orgSlug={orgSlug}
        inspectionId={inspectionId}
        itemKey={item.key}
        itemLabel={item.label}
        actions={actionsByItem.get(item.key) ?? []}
        suggestedTitle={suggestedTitle}
        canOpen={canOpenActions(role)}
        assignees={canManageActions(role) ? assignees : undefined}
        compact={place === 'summary'}
      />
    ),
    [orgId, orgSlug, role, inspectionId, actionsByItem, assignees],
  );

  useRunPageCode();
  // Read on the first tap or key press (or three seconds after the inspection shows): no form needs it sooner.
  const canAssign = canManageActions(membership.role) && inspection.data !== undefined;
  const [wantAssignees, setWantAssignees] = useState(false);
  useEffect(() => (canAssign ? onFirstInteractionOr(3000, () => setWantAssignees(true)) : undefined), [canAssign]);
  const assigneeChoices = canAssign && wantAssignees ? (
    <Suspense fallback={null}>
      <AssigneeChoices orgId={membership.org_id} onChoices={setAssignees} />
    </Suspense>
  ) : null;

  if (!inspection.data && isWaitingForNetwork(inspection)) {
    return (
      <ContentLayout title="Inspection" description={membership.org_name}>
        <NotOnDevice message={inspectionNotOnDevice}>
          <p>
            <Link to={`/o/${membership.org_slug}/inspections`}>Back to inspections</Link>
          </p>
        </NotOnDevice>
      </ContentLayout>
    );
  }
  if (inspection.isPending) return <LoadingScreen />;
  if (inspection.isError && !inspection.data) {
    const failure = describeError(inspection.error);
    if (failure.code === 'not_found') return <InspectionNotFound />;
    return (
      <ContentLayout title="Inspection" description={membership.org_name}>
        <QueryError error={inspection.error} onRetry={() => inspection.refetch()} />
      </ContentLayout>
    );
  }

  return (
    <ContentLayout
      title={inspection.data.title}
      description={membership.org_name}
      actions={
        <PdfDownload path={apiPath('orgs', membership.org_id, 'inspections', inspectionId, 'report.pdf')} />
      }
    >
      <InspectionRun
        key={inspection.data.id}
        orgId={membership.org_id}
        orgSlug={membership.org_slug}
        userId={userId}
        displayName={me.data?.display_name || me.data?.email || 'A member'}
        role={membership.role}
        inspection={inspection.data}
        itemActions={itemActions}
      />
      {assigneeChoices}
      <p>
        <Link to={`/o/${membership.org_slug}/inspections`}>Back to inspections</Link>
      </p>
    </ContentLayout>
  );
}
