import { useState } from 'react';
import { Button } from './button';
import { FormAlert } from './form-alert';

interface SecretShownOnceProps {
  /** What was made, e.g. `The key "Warehouse" was created.` */
  made: string;
  /** The field's label, e.g. "Your new key". */
  label: string;
  /** What the secret is, as the sentence names it: "Copy this {secretName} now", e.g. "signing secret". */
  secretName: string;
  secret: string;
  onDone: () => void;
}

/**
 * A secret the server shows this once (an API key, a webhook signing secret): whole, selectable,
 * with a copy button, and said plainly what it is and that it will not be shown again.
 */
export function SecretShownOnce({ made, label, secretName, secret, onDone }: SecretShownOnceProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="stack" role="status" aria-live="polite">
      <FormAlert tone="success" message={`${made} Copy this ${secretName} now — it won't be shown again.`} />
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} className="secret-field" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
      </div>
      <div className="button-row">
        <Button
          type="button"
          onClick={() =>
            void navigator.clipboard
              .writeText(secret)
              .then(() => setCopied('yes'))
              .catch(() => setCopied('failed'))}
        >
          Copy
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          I have stored it
        </Button>
      </div>
      {copied === 'yes' ? <p className="muted">Copied to the clipboard.</p> : null}
      {copied === 'failed' ? <p className="muted">This browser would not copy it: select it above and copy it yourself.</p> : null}
    </div>
  );
}
