import { describeError } from '@/lib/errors';
import { Button } from './button';
import { FormAlert } from './form-alert';

/** What a screen shows when it could not read its data: what went wrong, and a way out ("Try again"). */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => unknown }) {
  return (
    <div className="stack">
      <FormAlert message={describeError(error).message} />
      <div>
        <Button variant="secondary" onClick={() => void onRetry()}>
          Try again
        </Button>
      </div>
    </div>
  );
}
