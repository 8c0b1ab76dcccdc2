import { Link } from 'react-router-dom';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignUpForm } from '../../features/auth/components/sign-up-form';

export function SignUpRoute() {
  return (
    <AuthLayout
      title="Create your account"
      description="Run inspections, capture evidence and follow up actions with your team."
      footer={
        <>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </>
      }
    >
      <SignUpForm />
    </AuthLayout>
  );
}
