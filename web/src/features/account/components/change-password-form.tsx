import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { describeError, type UserFacingError } from '../../../lib/errors';
import { formValues, newPasswordField, validateForm } from '../../../lib/validation';
import { useChangePassword } from '../api/change-password';

const changePasswordSchema = z.object({ password: newPasswordField });

export function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    changePassword.reset();
    const { data, fieldErrors } = validateForm(changePasswordSchema, formValues(form));
    if (!data) {
      setFailure({ fieldErrors });
      return;
    }
    setFailure(null);
    changePassword.mutate(data.password, {
      onSuccess: () => form.reset(),
      onError: (error) => setFailure(describeError(error)),
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      {changePassword.isSuccess ? <FormAlert tone="success" message="Your password has been changed." /> : null}
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, with letters and digits."
        error={failure?.fieldErrors.password}
      />
      <Button type="submit" pending={changePassword.isPending}>
        Change password
      </Button>
    </form>
  );
}
