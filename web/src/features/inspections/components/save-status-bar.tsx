import { ArrowRight, CircleAlert, CircleCheck, CloudOff, LoaderCircle, RotateCw } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import type { SaveSummary } from '../hooks/use-answer-autosave';

/** Whole seconds until `at`, ticking each second while there is something to count down. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

interface SaveStatusBarProps {
  summary: SaveSummary;
  answered: number;
  total: number;
  onRetry: () => void;
  onNextUnanswered?: () => void;
  onShowAttention: () => void;
}

/**
 * The run page's status, always in view while answering (docs/offline.md): where the changes are
 * — on the server, on this device, on their way, waiting to retry, or needing the user — never
 * "saved" before they are in IndexedDB or on the server; how far the inspection is; what is next.
 */
export function SaveStatusBar({ summary, answered, total, onRetry, onNextUnanswered, onShowAttention }: SaveStatusBarProps) {
  const seconds = useSecondsUntil(summary.overall === 'retrying' ? summary.retryAt : null);
  let status: ReactNode = null;
  switch (summary.overall) {
    case 'saved':
      status = (
        <>
          <CircleCheck aria-hidden="true" size={18} />
          <span>Saved</span>
        </>
      );
      break;
    case 'saving':
      status = (
        <>
          <LoaderCircle aria-hidden="true" size={18} className="spin" />
          <span>Saving…</span>
        </>
      );
      break;
    case 'on-device':
      status = (
        <>
          <CloudOff aria-hidden="true" size={18} />
          <span>Saved on this device — will send when online ({summary.waiting} waiting)</span>
        </>
      );
      break;
    case 'retrying':
      status = (
        <>
          <RotateCw aria-hidden="true" size={18} />
          <span>
            Couldn't save — retrying {seconds ? `in ${seconds} s` : 'now'} ({summary.waiting} on this device)
          </span>
          <Button variant="link" onClick={onRetry}>
            Retry now
          </Button>
        </>
      );
      break;
    case 'attention':
      status = (
        <>
          <CircleAlert aria-hidden="true" size={18} />
          <button type="button" className="button button-link" onClick={onShowAttention}>
            {plural(summary.needsAttention, 'answer needs', 'answers need')} your attention
          </button>
        </>
      );
      break;
  }
  return (
    <div className="sticky-bar save-status-bar">
      <p className={`save-state save-state-${summary.overall}`} role="status" aria-live="polite">
        {status}
      </p>
      <p className="save-progress">
        Answered {answered} of {total}
      </p>
      {onNextUnanswered ? (
        <Button variant="secondary" onClick={onNextUnanswered}>
          Next unanswered
          <ArrowRight aria-hidden="true" size={18} />
        </Button>
      ) : null}
    </div>
  );
}
