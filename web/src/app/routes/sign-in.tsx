import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { safeNextPath, withNext } from '../return-path';

export function SignInRoute() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const email = params.get('email') ?? undefined;
  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back to Fieldcheck."
      footer={
        <>
          New to Fieldcheck? <Link to={withNext('/sign-up', next, email ? { email } : {})}>Create an account</Link>
        </>
      }
    >
      <SignInForm defaultEmail={email} />
    </AuthLayout>
  );
}
