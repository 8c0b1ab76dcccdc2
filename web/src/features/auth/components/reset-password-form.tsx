import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/text-field';
import { newPasswordField } from '@/lib/validation';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useSetNewPassword } from '../api/set-new-password';

const resetPasswordSchema = z.object({ password: newPasswordField });

/** Shown with the recovery session that the mailed link created. */
export function ResetPasswordForm() {
  const setNewPassword = useSetNewPassword();
  const { failure, handleSubmit } = useValidatedSubmit(resetPasswordSchema, (data, { fail }) =>
    setNewPassword.mutate(data.password, { onError: fail }),
  );

  if (setNewPassword.isSuccess) {
    return (
      <div className="stack">
        <FormAlert tone="success" message="Your password has been changed." />
        <Link className="button button-primary" to="/">
          Continue to Fieldcheck
        </Link>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <PasswordField purpose="new" label="New password" error={failure?.fieldErrors.password} />
      <Button type="submit" pending={setNewPassword.isPending}>
        Set new password
      </Button>
    </form>
  );
}
