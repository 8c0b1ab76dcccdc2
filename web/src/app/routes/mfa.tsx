import { AuthLayout } from '@/components/layouts/auth-layout';
import { MfaChallengeForm } from '@/features/auth/components/mfa-challenge-form';

export function MfaRoute() {
  return (
    <AuthLayout title="Two-factor authentication" description="Enter the code from your authenticator app to continue.">
      <MfaChallengeForm />
    </AuthLayout>
  );
}
