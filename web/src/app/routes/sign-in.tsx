import { Link } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignInForm } from '../../features/auth/components/sign-in-form';

export function SignInRoute() {
  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back to Fieldcheck."
      footer={
        <>
          New to Fieldcheck? <Link to="/sign-up">Create an account</Link>
        </>
      }
    >
      <SignInForm />
    </AuthLayout>
  );
}
