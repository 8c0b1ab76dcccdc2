import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from '../components/ui/button';

/**
 * A quiet note when a new version of the app is ready: nothing reloads under the user's hands (a
 * half-typed answer, an upload); they reload when it suits them, or later.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version of Fieldcheck is available.</span>
      <Button variant="secondary" onClick={() => void updateServiceWorker(true)}>
        Reload
      </Button>
      <Button variant="link" onClick={() => setNeedRefresh(false)}>
        Later
      </Button>
    </div>
  );
}
