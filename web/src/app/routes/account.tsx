import { Link, useLocation } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { Authenticators } from '@/features/account/components/authenticators';
import { ChangePasswordForm } from '@/features/account/components/change-password-form';
import { ReminderPreferencesForm } from '@/features/account/components/reminder-preferences-form';
import { SignOutPanel } from '@/features/account/components/sign-out-panel';
import { DisplayNameForm } from '@/features/profile/components/display-name-form';
import type { AccountRouteState } from '../mfa-required-redirect';

export function AccountRoute() {
  const location = useLocation();
  const state = location.state as AccountRouteState | null;
  const from = state?.mfaRequired ? state.from : undefined;

  return (
    <ContentLayout title="Your account">
      {from ? (
        // Sent here by an organization that requires two-factor authentication, without an authenticator yet.
        <div className="stack">
          <FormAlert
            message="This organization requires two-factor authentication. Set up an authenticator app below, then go back and try again."
          />
          <p>
            <Link to={`${from.pathname}${from.search}${from.hash}`}>Back to where you were</Link>
          </p>
        </div>
      ) : null}
      <section className="panel" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <DisplayNameForm />
      </section>
      <section className="panel" aria-labelledby="reminders-heading">
        <h2 id="reminders-heading">Reminder emails</h2>
        <ReminderPreferencesForm />
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
    </ContentLayout>
  );
}
