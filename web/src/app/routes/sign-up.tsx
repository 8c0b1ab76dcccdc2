import { Link } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { SignUpForm } from '@/features/auth/components/sign-up-form';
import { useAuthLinkParams, withNext } from '../return-path';

export function SignUpRoute() {
  const { next, email } = useAuthLinkParams();
  return (
    <AuthLayout
      title="Create your account"
      description="Run inspections, capture evidence and follow up actions with your team."
      footer={
        <>
          Already have an account? <Link to={withNext('/sign-in', next, email)}>Sign in</Link>
        </>
      }
    >
      <SignUpForm defaultEmail={email} redirectPath={next ?? '/'} />
    </AuthLayout>
  );
}
