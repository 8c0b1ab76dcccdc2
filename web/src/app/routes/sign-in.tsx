import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { SignInForm } from '@/features/auth/components/sign-in-form';
import { SignInNotices } from '@/features/auth/components/sign-in-notices';
import { lastUser } from '@/lib/auth';
import { useOnline } from '@/lib/use-online';
import { useAuthLinkParams, withNext } from '../return-path';

export function SignInRoute() {
  const { next, email } = useAuthLinkParams();
  const online = useOnline();
  const last = useMemo(lastUser, []);
  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back to Fieldcheck."
      footer={
        <>
          New to Fieldcheck? <Link to={withNext('/sign-up', next, email)}>Create an account</Link>
        </>
      }
    >
      <SignInNotices online={online} last={last} />
      {/* After a session that expired, the same person most likely signs in again. */}
      <SignInForm defaultEmail={email ?? (last?.expired ? last.email : undefined)} offline={!online} />
    </AuthLayout>
  );
}
