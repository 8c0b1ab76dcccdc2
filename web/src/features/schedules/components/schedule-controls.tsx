import type { ScheduleDetail } from '@schemas/schedules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Pause, Play } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { getOccurrences } from '../api/get-occurrences';
import { scheduleKeys } from '../api/get-schedules';
import { useMoveSchedule, type ScheduleMove } from '../api/schedule-moves';

const ConfirmDialog = lazy(() => import('@/components/ui/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })));

const DAY = 86_400_000;
/** Occurrences are made 14 days ahead (HORIZON_DAYS): the made ones that a pause or a deletion cancels start within 15. */
const MADE_DAYS = 15;
const COUNT_PAGES = 5;

/**
 * The inspections a pause or a deletion would cancel: those made for occurrences that start after
 * now and are not started (private.cancel_future_occurrences), counted up to 1,000.
 */
function useUpcomingCount(orgId: string, scheduleId: string, enabled: boolean) {
  const counting = queryOptions({
    queryKey: [...scheduleKeys.all(orgId), 'cancelable', scheduleId] as const,
    queryFn: async () => {
      const now = Date.now();
      const range = { from: new Date(now).toISOString(), to: new Date(now + MADE_DAYS * DAY).toISOString() };
      const { rows, more } = await getOccurrences(orgId, scheduleId, range, { maxPages: COUNT_PAGES });
      const count = rows.filter((row) => row.inspection?.status === 'scheduled' && Date.parse(row.occurrence_at) > now).length;
      return { count, more };
    },
  });
  // Counted afresh each time the question is asked.
  return useQuery({ ...counting, enabled, staleTime: 0 });
}

function countWords({ count, more }: { count: number; more: boolean }): string {
  if (more) return `More than ${count} upcoming inspections`;
  return count === 1 ? '1 upcoming inspection' : `${count} upcoming inspections`;
}

interface ScheduleControlsProps {
  orgId: string;
  schedule: ScheduleDetail;
  /** Done: what was done, and the sentence that says so. */
  onMoved: (move: ScheduleMove, notice: string) => void;
}

/** Pause, resume and delete, each asking first and saying what follows. Managers only (the route decides). */
export function ScheduleControls({ orgId, schedule, onMoved }: ScheduleControlsProps) {
  const moveSchedule = useMoveSchedule();
  const [asking, setAsking] = useState<ScheduleMove | null>(null);
  const [error, setError] = useState<string | undefined>();
  const counting = useUpcomingCount(orgId, schedule.id, asking === 'pause' || asking === 'delete');

  function move(next: ScheduleMove) {
    setAsking(null);
    setError(undefined);
    // Not mutate's own callbacks: the schedule read again after the change may unmount these
    // controls (a deleted schedule has none) before they would run, and what happened must be said.
    moveSchedule.mutateAsync({ orgId, scheduleId: schedule.id, move: next }).then(
      () =>
        onMoved(
          next,
          next === 'pause'
            ? `${schedule.name} is paused: its upcoming inspections were canceled.`
            : next === 'resume'
              ? `${schedule.name} is running again: its occurrences of the next 14 days are scheduled.`
              : `${schedule.name} was deleted.`,
        ),
      (failure: unknown) => setError(describeErrorSentence(failure)),
    );
  }

  const what = counting.isPending ? (
    <p className="muted">Counting the upcoming inspections…</p>
  ) : counting.isError ? (
    <p>Its upcoming inspections that are not started yet will be canceled (they could not be counted just now).</p>
  ) : (
    <p>
      <strong>{countWords(counting.data)} will be canceled</strong>: those made for occurrences that have not started yet. Inspections already started or open now
      are kept.
    </p>
  );

  return (
    <div className="stack">
      <FormAlert message={error} />
      {moveSchedule.isPaused ? (
        <p className="form-alert form-alert-info" role="status">
          You're offline: this is done when the network is back. Keep this page open until then.
        </p>
      ) : null}
      <div className="button-row">
        {schedule.paused ? (
          <Button variant="secondary" pending={moveSchedule.isPending && moveSchedule.variables?.move === 'resume'} onClick={() => move('resume')}>
            <Play aria-hidden="true" size={18} />
            Resume schedule
          </Button>
        ) : (
          <Button variant="secondary" pending={moveSchedule.isPending && moveSchedule.variables?.move === 'pause'} onClick={() => setAsking('pause')}>
            <Pause aria-hidden="true" size={18} />
            Pause schedule
          </Button>
        )}
        <Button variant="danger" pending={moveSchedule.isPending && moveSchedule.variables?.move === 'delete'} onClick={() => setAsking('delete')}>
          Delete schedule
        </Button>
      </div>
      {asking ? (
        <Suspense fallback={null}>
          {asking === 'pause' ? (
            <ConfirmDialog title={`Pause ${schedule.name}?`} confirmText="Pause schedule" onConfirm={() => move('pause')} onCancel={() => setAsking(null)}>
              {what}
              <p>Nothing new is made while it is paused. Resuming makes the next 14 days' occurrences again, and those still open.</p>
            </ConfirmDialog>
          ) : (
            <ConfirmDialog title={`Delete ${schedule.name}?`} confirmText="Delete schedule" onConfirm={() => move('delete')} onCancel={() => setAsking(null)}>
              {what}
              <p>Its past inspections stay, with their results, and still count in compliance. A deleted schedule cannot be edited or resumed.</p>
            </ConfirmDialog>
          )}
        </Suspense>
      ) : null}
    </div>
  );
}
