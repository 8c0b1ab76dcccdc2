import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SecretShownOnce } from '@/components/ui/secret-shown-once';

export interface ShownSecret {
  /** What was done, said before the secret. */
  made: string;
  /** What was done, said when the answer came without its secret. */
  lost: string;
  /** Null in a retried request's answer: the secret is in the first answer only. */
  value: string | null;
}

/** A new signing secret, once; or, where a retried request's answer has none, what to do instead. */
export function NewSigningSecret({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  if (shown.value === null) {
    return (
      <div className="stack" role="status">
        <FormAlert message={shown.lost} />
        <div>
          <Button type="button" variant="secondary" onClick={onDone}>OK</Button>
        </div>
      </div>
    );
  }
  return <SecretShownOnce made={shown.made} label="Signing secret" secretName="signing secret" secret={shown.value} onDone={onDone} />;
}
