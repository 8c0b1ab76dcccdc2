import { Link } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { useAuthLinkParams, withNext } from '../return-path';

export function SignInRoute() {
  const { next, email } = useAuthLinkParams();
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
      <SignInForm defaultEmail={email} />
    </AuthLayout>
  );
}
