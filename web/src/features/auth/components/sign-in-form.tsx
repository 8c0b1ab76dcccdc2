import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField, TextField } from '@/components/ui/text-field';
import { getSupabase } from '@/lib/supabase';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useSignIn } from '../api/sign-in';

// The sign-in page is the first page of most visits: its rules (zod) and supabase-js load when the
// form is first touched, not before it is shown (docs/offline.md, "Weight").
const loadSignInSchema = () => import('../sign-in-schema').then((module) => module.signInSchema);

function prepare() {
  void loadSignInSchema().catch(() => undefined);
  void getSupabase().catch(() => undefined);
}

/** `offline`: signing in needs the server, so the button waits for the network (the page says why). */
export function SignInForm({ defaultEmail, offline = false }: { defaultEmail?: string; offline?: boolean }) {
  const signIn = useSignIn();
  const { failure, handleSubmit } = useValidatedSubmit(loadSignInSchema, (data, { fail }) =>
    // On success the SIGNED_IN event updates the session and the route guard moves on.
    signIn.mutate(data, { onError: fail }),
  );

  return (
    <form className="form" onSubmit={handleSubmit} onFocus={prepare} noValidate>
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
      <PasswordField purpose="current" error={failure?.fieldErrors.password} />
      <Button type="submit" pending={signIn.isPending} disabled={offline}>
        Sign in
      </Button>
      <p className="form-aside">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </form>
  );
}
