import { AppLayout } from '../../components/layouts/app-layout';
import { Authenticators } from '../../features/account/components/authenticators';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { SignOutPanel } from '../../features/account/components/sign-out-panel';
import { DisplayNameForm } from '../../features/profile/components/display-name-form';

export function AccountRoute() {
  return (
    <AppLayout title="Your account">
      <section className="panel" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <DisplayNameForm />
      </section>
      <section className="panel" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <ChangePasswordForm />
      </section>
      <section className="panel" aria-labelledby="mfa-heading">
        <h2 id="mfa-heading">Two-factor authentication</h2>
        <Authenticators />
      </section>
      <section className="panel" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <SignOutPanel />
      </section>
    </AppLayout>
  );
}
