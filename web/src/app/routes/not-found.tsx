import { formatWording, errorCatalogue } from '@schemas/errors';
import { Link } from 'react-router-dom';
import { AuthLayout } from '@/components/layouts/auth-layout';

export function NotFoundRoute() {
  return (
    <AuthLayout title={formatWording(errorCatalogue.not_found.title, { thing: 'page' })}>
      <Link className="button button-primary" to="/">
        Go to the start page
      </Link>
    </AuthLayout>
  );
}
