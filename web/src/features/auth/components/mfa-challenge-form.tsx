import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { totpCodeField, totpCodeInputProps } from '@/lib/validation';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useSignOutHere } from '../api/sign-out';
import { useVerifyMfaChallenge } from '../api/verify-mfa-challenge';

const mfaChallengeSchema = z.object({ code: totpCodeField });

export function MfaChallengeForm() {
  const verify = useVerifyMfaChallenge();
  const signOut = useSignOutHere();
  const { failure, handleSubmit } = useValidatedSubmit(mfaChallengeSchema, (data, { form, fail }) =>
    // On success MFA_CHALLENGE_VERIFIED brings an aal2 session and the route guard moves on.
    verify.mutate(data.code, {
      onError: (error) => {
        fail(error);
        form.reset();
      },
    }),
  );

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField
        label="Authentication code"
        name="code"
        {...totpCodeInputProps}
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
