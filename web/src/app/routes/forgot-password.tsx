import { Link } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export function ForgotPasswordRoute() {
  return (
    <AuthLayout
      title="Reset your password"
      description="Enter your email address and we'll send you a link to choose a new password."
      footer={<Link to="/sign-in">Back to sign in</Link>}
    >
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
