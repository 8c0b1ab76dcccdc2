import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { describeError, type UserFacingError } from '../../../lib/errors';
import { emailField, formValues, newPasswordField, validateForm } from '../../../lib/validation';
import { useSignUp } from '../api/sign-up';

const signUpSchema = z.object({ email: emailField, password: newPasswordField });

export function SignUpForm() {
  const signUp = useSignUp();
  const [failure, setFailure] = useState<UserFacingError | null>(null);
  const [awaitingConfirmation, setAwaitingConfirmation] = useState(false);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { data, fieldErrors } = validateForm(signUpSchema, formValues(event.currentTarget));
    if (!data) {
      setFailure({ fieldErrors });
      return;
    }
    setFailure(null);
    signUp.mutate(data, {
      // Without a session the server wants the address confirmed first.
      onSuccess: (result) => setAwaitingConfirmation(result.session === null),
      onError: (error) => setFailure(describeError(error)),
    });
  }

  if (awaitingConfirmation) {
    return (
      <FormAlert tone="success" message="Check your inbox: we sent you a link to confirm your email address." />
    );
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required error={failure?.fieldErrors.email} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, with letters and digits."
        error={failure?.fieldErrors.password}
      />
      <Button type="submit" pending={signUp.isPending}>
        Create account
      </Button>
    </form>
  );
}
