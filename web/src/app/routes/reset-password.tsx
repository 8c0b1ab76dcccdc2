import { authErrorMessage } from '@schemas/errors';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { needsMfaChallenge, useAssuranceLevel } from '@/features/auth/api/get-assurance-level';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { useAuth } from '@/lib/auth';

export function ResetPasswordRoute() {
  const { ready, session } = useAuth();
  const location = useLocation();
  const level = useAssuranceLevel();
  if (!ready) return <LoadingScreen />;

  // No session: the link was expired or already used (the redirect then carries `error_code`),
  // or the page was opened directly.
  if (!session) {
    return (
      <AuthLayout title="Choose a new password" footer={<Link to="/sign-in">Back to sign in</Link>}>
        <div className="stack">
          <FormAlert message={authErrorMessage('otp_expired')} />
          <Link className="button button-primary" to="/forgot-password">
            Send a new link
          </Link>
        </div>
      </AuthLayout>
    );
  }

  // The recovery link gives an aal1 session; with two-factor authentication on, Auth changes
  // the password only at aal2, so the authenticator code comes first, then back here.
  if (level.isPending) return <LoadingScreen />;
  if (needsMfaChallenge(level.data)) return <Navigate to="/mfa" replace state={{ from: location }} />;

  return (
    <AuthLayout title="Choose a new password" description={`For ${session.user.email ?? 'your account'}.`}>
      <ResetPasswordForm />
    </AuthLayout>
  );
}
