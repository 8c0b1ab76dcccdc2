import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { describeError, type UserFacingError } from '../../../lib/errors';
import { formValues, totpCodeField, validateForm } from '../../../lib/validation';
import { useSignOutHere } from '../api/sign-out';
import { useVerifyMfaChallenge } from '../api/verify-mfa-challenge';

const mfaChallengeSchema = z.object({ code: totpCodeField });

export function MfaChallengeForm() {
  const verify = useVerifyMfaChallenge();
  const signOut = useSignOutHere();
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { data, fieldErrors } = validateForm(mfaChallengeSchema, formValues(form));
    if (!data) {
      setFailure({ fieldErrors });
      return;
    }
    setFailure(null);
    // On success MFA_CHALLENGE_VERIFIED brings an aal2 session and the route guard moves on.
    verify.mutate(data.code, {
      onError: (error) => {
        setFailure(describeError(error));
        form.reset();
      },
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField
        label="Authentication code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autoFocus
        hint="The 6-digit code from your authenticator app."
        error={failure?.fieldErrors.code}
      />
      <Button type="submit" pending={verify.isPending}>
        Verify
      </Button>
      <Button variant="link" onClick={() => signOut.mutate()} pending={signOut.isPending}>
        Sign in with a different account
      </Button>
    </form>
  );
}
