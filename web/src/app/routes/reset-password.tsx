import { authErrorMessage } from '@schemas/errors';
import { Link } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingScreen } from '../../components/ui/loading-screen';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { useAuth } from '../../lib/auth';

export function ResetPasswordRoute() {
  const { ready, session } = useAuth();
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

  return (
    <AuthLayout title="Choose a new password" description={`For ${session.user.email ?? 'your account'}.`}>
      <ResetPasswordForm />
    </AuthLayout>
  );
}
