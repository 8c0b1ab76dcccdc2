import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { safeNextPath, withNext } from '../return-path';

export function SignUpRoute() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const email = params.get('email') ?? undefined;
  return (
    <AuthLayout
      title="Create your account"
      description="Run inspections, capture evidence and follow up actions with your team."
      footer={
        <>
          Already have an account? <Link to={withNext('/sign-in', next, email ? { email } : {})}>Sign in</Link>
        </>
      }
    >
      <SignUpForm defaultEmail={email} redirectPath={next ?? '/'} />
    </AuthLayout>
  );
}
