import { useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField, TextField } from '@/components/ui/text-field';
import { emailField, newPasswordField } from '@/lib/validation';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useSignUp } from '../api/sign-up';

const signUpSchema = z.object({ email: emailField, password: newPasswordField });

interface SignUpFormProps {
  /** Prefilled, e.g. the address an invitation was sent to. */
  defaultEmail?: string;
  /** Where the confirmation link lands, when the server wants addresses confirmed. */
  redirectPath?: string;
}

export function SignUpForm({ defaultEmail, redirectPath = '/' }: SignUpFormProps) {
  const signUp = useSignUp();
  const [awaitingConfirmation, setAwaitingConfirmation] = useState(false);

  const { failure, handleSubmit } = useValidatedSubmit(signUpSchema, (data, { fail }) =>
    signUp.mutate({ ...data, redirectPath }, {
      // Without a session the server wants the address confirmed first.
      onSuccess: (result) => setAwaitingConfirmation(result.session === null),
      onError: fail,
    }),
  );

  if (awaitingConfirmation) {
    return (
      <FormAlert tone="success" message="Check your inbox: we sent you a link to confirm your email address." />
    );
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={defaultEmail}
        error={failure?.fieldErrors.email}
      />
      <PasswordField purpose="new" error={failure?.fieldErrors.password} />
      <Button type="submit" pending={signUp.isPending}>
        Create account
      </Button>
    </form>
  );
}
