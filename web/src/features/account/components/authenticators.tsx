import type { Factor } from '@supabase/supabase-js';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { describeError, type UserFacingError } from '@/lib/errors';
import { totpCodeField, totpCodeInputProps } from '@/lib/validation';
import { formValues, validateForm } from '@/lib/form-values';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useEnrollTotp, type TotpEnrollment } from '../api/enroll-totp';
import { useFactors } from '../api/list-factors';
import { useRemoveFactor } from '../api/remove-factor';
import { useVerifyTotpEnrollment } from '../api/verify-totp-enrollment';
import { QueryError } from '@/components/ui/query-error';

const verifySchema = z.object({ code: totpCodeField });
const nameSchema = z.object({ friendly_name: z.string().trim().max(60).default('') });

function defaultFactorName(factors: Factor[]): string {
  const names = new Set(factors.map((factor) => factor.friendly_name));
  let name = 'Authenticator app';
  for (let n = 2; names.has(name); n += 1) name = `Authenticator app ${n}`;
  return name;
}

function EnrollmentStep({ enrollment, onDone, onCancel }: { enrollment: TotpEnrollment; onDone: () => void; onCancel: () => void }) {
  const verify = useVerifyTotpEnrollment();
  const { failure, handleSubmit } = useValidatedSubmit(verifySchema, (data, { form, fail }) =>
    verify.mutate(
      { factorId: enrollment.factorId, code: data.code },
      {
        onSuccess: onDone,
        onError: (error) => {
          fail(error);
          form.reset();
        },
      },
    ),
  );

  return (
    <div className="enrollment">
      <ol className="steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img className="qr-code" src={enrollment.qrCode} alt="QR code to add Fieldcheck to your authenticator app" width={200} height={200} />
        </li>
        <li>
          <p>Or type this key into the app:</p>
          <code className="secret" data-testid="totp-secret">
            {enrollment.secret}
          </code>
        </li>
        <li>
          <form className="form" onSubmit={handleSubmit} noValidate>
            <FormAlert message={failure?.message} />
            <TextField
              label="6-digit code from the app"
              name="code"
              {...totpCodeInputProps}
              required
              error={failure?.fieldErrors.code}
            />
            <div className="button-row">
              <Button type="submit" pending={verify.isPending}>
                Verify and turn on
              </Button>
              <Button variant="secondary" onClick={onCancel} disabled={verify.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

export function Authenticators() {
  const factors = useFactors();
  const enroll = useEnrollTotp();
  const remove = useRemoveFactor();
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [failure, setFailure] = useState<UserFacingError | null>(null);
  const [notice, setNotice] = useState<string | undefined>();

  if (factors.isPending) return <p className="muted">Loading your authenticators…</p>;
  if (factors.isError) return <QueryError error={factors.error} onRetry={() => factors.refetch()} />;

  const verified = factors.data.filter((factor) => factor.status === 'verified');

  function handleEnroll(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { data } = validateForm(nameSchema, formValues(event.currentTarget));
    setFailure(null);
    setNotice(undefined);
    const friendlyName = data?.friendly_name || defaultFactorName(factors.data ?? []);
    enroll.mutate(friendlyName, {
      onSuccess: setEnrollment,
      onError: (error) => setFailure(describeError(error)),
    });
  }

  function handleCancel() {
    if (enrollment) remove.mutate(enrollment.factorId);
    setEnrollment(null);
  }

  function handleRemove(factor: Factor) {
    setFailure(null);
    setNotice(undefined);
    remove.mutate(factor.id, {
      onSuccess: () => setNotice('The authenticator has been removed.'),
      onError: (error) => setFailure(describeError(error)),
    });
  }

  return (
    <div className="stack">
      <FormAlert message={failure?.message} />
      <FormAlert tone="success" message={notice} />
      {verified.length === 0 ? (
        enrollment ? null : <p>Two-factor authentication is off. Add an authenticator app to protect your account with a code.</p>
      ) : (
        <ul className="factor-list" aria-label="Authenticators">
          {verified.map((factor) => (
            <li key={factor.id} className="factor">
              <div>
                <strong>{factor.friendly_name || 'Authenticator app'}</strong>
                <span className="muted"> · added {new Date(factor.created_at).toLocaleDateString()}</span>
              </div>
              <Button
                variant="danger"
                onClick={() => handleRemove(factor)}
                pending={remove.isPending && remove.variables === factor.id}
                aria-label={`Remove ${factor.friendly_name || 'authenticator app'}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {enrollment ? (
        <EnrollmentStep
          enrollment={enrollment}
          onDone={() => {
            setEnrollment(null);
            setNotice('Two-factor authentication is on. You will be asked for a code when you sign in.');
          }}
          onCancel={handleCancel}
        />
      ) : (
        <form className="form" onSubmit={handleEnroll} noValidate>
          <TextField
            label="Authenticator name"
            name="friendly_name"
            maxLength={60}
            placeholder={defaultFactorName(factors.data)}
            hint="Optional: helps you tell your devices apart."
          />
          <Button type="submit" pending={enroll.isPending}>
            {verified.length === 0 ? 'Set up authenticator app' : 'Add another authenticator'}
          </Button>
        </form>
      )}
    </div>
  );
}
