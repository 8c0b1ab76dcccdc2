// Work that can wait for the user: done on their first tap or key press, or after a while.

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Calls `fn` once: on the user's first tap or key press anywhere, or after `ms`, whichever comes
 * first. Returns a function that cancels it. Loading code this way keeps the main thread free
 * while a page shows itself and the user starts reading (docs/offline.md, "Weight").
 */
export function onFirstInteractionOr(ms: number, fn: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    cancel();
    done = true;
    fn();
  };
  const timer = setTimeout(run, ms);
  for (const type of INTERACTIONS) window.addEventListener(type, run, { capture: true, passive: true });
  function cancel() {
    clearTimeout(timer);
    for (const type of INTERACTIONS) window.removeEventListener(type, run, { capture: true });
  }
  return () => {
    done = true;
    cancel();
  };
}
