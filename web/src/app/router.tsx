import { createBrowserRouter } from 'react-router-dom';
import { RequireMfaChallenge, RequireSignedIn, RequireSignedOut } from './guards';
import { RootLayout } from './root-layout';
import { AccountRoute } from './routes/account';
import { ActionDetailRoute } from './routes/action-detail';
import { ActionsRoute } from './routes/actions';
import { ForgotPasswordRoute } from './routes/forgot-password';
import { HomeRoute } from './routes/home';
import { InspectionDetailRoute } from './routes/inspection-detail';
import { InspectionsRoute } from './routes/inspections';
import { InvitationRoute } from './routes/invitation';
import { MembersRoute } from './routes/members';
import { MfaRoute } from './routes/mfa';
import { NotFoundRoute } from './routes/not-found';
import { OrgDashboardRoute } from './routes/org-dashboard';
import { OrgLayout } from './routes/org-layout';
import { OrgsRoute } from './routes/orgs';
import { ResetPasswordRoute } from './routes/reset-password';
import { SettingsRoute } from './routes/settings';
import { SignInRoute } from './routes/sign-in';
import { SignUpRoute } from './routes/sign-up';
import { SiteDetailRoute } from './routes/site-detail';
import { SiteNewRoute } from './routes/site-new';
import { SitesRoute } from './routes/sites';
import { TemplateDetailRoute } from './routes/template-detail';
import { TemplatesRoute } from './routes/templates';
import { SignedInLayout } from './signed-in-layout';

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      { path: '/sign-in', element: <RequireSignedOut><SignInRoute /></RequireSignedOut> },
      { path: '/sign-up', element: <RequireSignedOut><SignUpRoute /></RequireSignedOut> },
      { path: '/forgot-password', element: <RequireSignedOut><ForgotPasswordRoute /></RequireSignedOut> },
      // Reached from the mailed link with a fresh recovery session, so it has no guard of its own.
      { path: '/reset-password', element: <ResetPasswordRoute /> },
      { path: '/mfa', element: <RequireMfaChallenge><MfaRoute /></RequireMfaChallenge> },
      // Open signed in or out: signed out, it offers sign-in and sign-up that come back here.
      { path: '/invitations/:token', element: <InvitationRoute /> },
      {
        element: <RequireSignedIn><SignedInLayout /></RequireSignedIn>,
        children: [
          { path: '/', element: <HomeRoute /> },
          { path: '/account', element: <AccountRoute /> },
          { path: '/orgs', element: <OrgsRoute /> },
          {
            path: '/o/:org',
            element: <OrgLayout />,
            children: [
              { index: true, element: <OrgDashboardRoute /> },
              { path: 'sites', element: <SitesRoute /> },
              { path: 'sites/new', element: <SiteNewRoute /> },
              { path: 'sites/:siteId', element: <SiteDetailRoute /> },
              { path: 'templates', element: <TemplatesRoute /> },
              { path: 'templates/:templateId', element: <TemplateDetailRoute /> },
              { path: 'inspections', element: <InspectionsRoute /> },
              { path: 'inspections/:inspectionId', element: <InspectionDetailRoute /> },
              { path: 'actions', element: <ActionsRoute /> },
              { path: 'actions/:actionId', element: <ActionDetailRoute /> },
              { path: 'members', element: <MembersRoute /> },
              { path: 'settings', element: <SettingsRoute /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);
