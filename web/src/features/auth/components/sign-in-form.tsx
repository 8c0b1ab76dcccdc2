import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { currentPasswordField, emailField } from '../../../lib/validation';
import { useValidatedSubmit } from '../../../lib/use-validated-submit';
import { useSignIn } from '../api/sign-in';

const signInSchema = z.object({ email: emailField, password: currentPasswordField });

export function SignInForm({ defaultEmail }: { defaultEmail?: string }) {
  const signIn = useSignIn();
  const { failure, handleSubmit } = useValidatedSubmit(signInSchema, (data, { fail }) =>
    // On success the SIGNED_IN event updates the session and the route guard moves on.
    signIn.mutate(data, { onError: fail }),
  );

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
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={failure?.fieldErrors.password}
      />
      <Button type="submit" pending={signIn.isPending}>
        Sign in
      </Button>
      <p className="form-aside">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </form>
  );
}
