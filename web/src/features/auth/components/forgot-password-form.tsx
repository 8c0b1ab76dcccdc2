import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { emailField } from '@/lib/validation';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useRequestPasswordReset } from '../api/request-password-reset';

const forgotPasswordSchema = z.object({ email: emailField });

export function ForgotPasswordForm() {
  const requestReset = useRequestPasswordReset();
  const { failure, handleSubmit } = useValidatedSubmit(forgotPasswordSchema, (data, { fail }) =>
    requestReset.mutate(data.email, { onError: fail }),
  );

  if (requestReset.isSuccess) {
    // The same answer whether or not the account exists, so addresses can't be probed.
    return (
      <FormAlert
        tone="success"
        message="If an account exists for that address, we've sent it a link to choose a new password. Check your inbox."
      />
    );
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required error={failure?.fieldErrors.email} />
      <Button type="submit" pending={requestReset.isPending}>
        Send reset link
      </Button>
    </form>
  );
}
