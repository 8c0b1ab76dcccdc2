import { Link } from 'react-router-dom';
import { AppLayout } from '../../components/layouts/app-layout';
import { useMe } from '../../features/profile/api/get-me';

export function HomeRoute() {
  const me = useMe();
  const name = me.data?.display_name || me.data?.email;
  return (
    <AppLayout title={name ? `Welcome, ${name}` : 'Welcome'}>
      <section className="panel">
        <h2>Organizations come next</h2>
        <p>
          Soon you'll create an organization here, invite your team and run your first inspection. Meanwhile, set up your
          profile and protect your account with two-factor authentication.
        </p>
        <Link className="button button-primary" to="/account">
          Go to your account
        </Link>
      </section>
    </AppLayout>
  );
}
