/**
 * Every piece of code the run page may load later (a signature, photos, the rules, live updates, an
 * action's form, the PDF's download, starting, submitting and reviewing), fetched once the page is open and the network is idle: an
 * inspector who opens an inspection and then loses the network can still expand every section. The
 * service worker precaches the same files; this covers a first visit before it has finished, and
 * browsers that keep no service worker. A module of its own, so the list is not part of the run
 * page's first load.
 */
const runPageCode = [
  () => import('@/features/inspections/components/signature-pad'),
  () => import('@/features/inspections/components/photo-evidence'),
  () => import('@/features/inspections/components/hidden-answers'),
  () => import('@/features/inspections/components/start-inspection-control'),
  () => import('@/features/inspections/components/review-inspection-panel'),
  () => import('@/features/inspections/components/cancel-inspection-control'),
  () => import('@/components/ui/confirm-dialog'),
  () => import('@/lib/photo-upload'),
  () => import('./inspection-detail-assignees'),
  () => import('@/features/inspections/utils/answer-checks'),
  () => import('@/features/inspections/utils/inspection-channel'),
  () => import('@schemas/visibility'),
  () => import('@/features/actions/components/new-action-panel'),
  () => import('@/features/actions/components/action-form'),
  () => import('@/components/ui/download-button'),
  () => import('@/lib/download'),
  () => import('@/lib/org-channel'),
];

export function loadRunPageCode(): Promise<PromiseSettledResult<unknown>[]> {
  return Promise.allSettled(runPageCode.map((load) => load()));
}
