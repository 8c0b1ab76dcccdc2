import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/text-field';
import { newPasswordField } from '@/lib/validation';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useChangePassword } from '../api/change-password';

const changePasswordSchema = z.object({ password: newPasswordField });

export function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const { failure, handleSubmit } = useValidatedSubmit(changePasswordSchema, (data, { form, fail }) =>
    changePassword.mutate(data.password, { onSuccess: () => form.reset(), onError: fail }),
  );

  return (
    <form
      className="form"
      onSubmit={(event) => {
        // A new attempt hides the last "changed" message.
        changePassword.reset();
        handleSubmit(event);
      }}
      // An edit after saving: "saved" is no longer true of what the form shows.
      onInput={() => {
        if (changePassword.isSuccess) changePassword.reset();
      }}
      noValidate
    >
      <FormAlert message={failure?.message} />
      {changePassword.isSuccess ? <FormAlert tone="success" message="Your password has been changed." /> : null}
      <PasswordField purpose="new" label="New password" error={failure?.fieldErrors.password} />
      <Button type="submit" pending={changePassword.isPending}>
        Change password
      </Button>
    </form>
  );
}
