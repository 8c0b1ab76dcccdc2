import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeError } from '@/lib/errors';
import { useSignOut, type SignOutScope } from '../api/sign-out';

export function SignOutPanel() {
  const signOut = useSignOut();
  const [message, setMessage] = useState<string | undefined>();

  function handleSignOut(scope: SignOutScope) {
    setMessage(undefined);
    // SIGNED_OUT then clears cached data and returns to the sign-in screen.
    signOut.mutate(scope, { onError: (error) => setMessage(describeError(error).message) });
  }

  return (
    <div className="stack">
      <FormAlert message={message} />
      <div className="button-row">
        <Button variant="secondary" onClick={() => handleSignOut('local')} pending={signOut.isPending && signOut.variables === 'local'}>
          Sign out
        </Button>
        <Button variant="danger" onClick={() => handleSignOut('global')} pending={signOut.isPending && signOut.variables === 'global'}>
          Sign out everywhere
        </Button>
      </div>
      <p className="muted">Signing out everywhere ends your sessions on every device and browser.</p>
    </div>
  );
}
