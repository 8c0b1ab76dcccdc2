import { invitationTokenSchema } from '@schemas/members';
import type { AcceptedInvitation } from '@schemas/members';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useSignOutHere } from '@/features/auth/api/sign-out';
import { InvitationPanel } from '@/features/invitations/components/invitation-panel';
import { useAuth } from '@/lib/auth';
import { refreshMemberships } from '../refresh-memberships';
import { withNext } from '../return-path';

/** `/invitations/:token`: open to everyone; signing in or up from here comes back here. */
export function InvitationRoute() {
  const { token = '' } = useParams();
  const { ready, session } = useAuth();
  const signOut = useSignOutHere();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (!ready) return <LoadingScreen />;

  const here = `/invitations/${token}`;
  const tokenCheck = invitationTokenSchema.safeParse({ token });

  async function openOrganization(accepted: AcceptedInvitation) {
    await refreshMemberships(queryClient).catch(() => undefined);
    navigate(`/o/${accepted.org_slug}`, { replace: true });
  }

  return (
    <AuthLayout
      title="You're invited"
      footer={session ? <Link to="/">Go to Fieldcheck</Link> : <Link to="/sign-in">Back to sign in</Link>}
    >
      {tokenCheck.success ? (
        <InvitationPanel
          token={token}
          signedInEmail={session ? (session.user.email ?? '') : null}
          renderSignedOutActions={(email) => (
            <div className="button-row">
              <Link className="button button-primary" to={withNext('/sign-up', here, email)}>
                Create an account
              </Link>
              <Link className="button button-secondary" to={withNext('/sign-in', here, email)}>
                Sign in
              </Link>
            </div>
          )}
          otherAccountActions={
            <Button variant="secondary" pending={signOut.isPending} onClick={() => signOut.mutate()}>
              Sign out
            </Button>
          }
          onAccepted={(accepted) => void openOrganization(accepted)}
        />
      ) : (
        <FormAlert message={tokenCheck.error.issues[0]?.message} />
      )}
    </AuthLayout>
  );
}
