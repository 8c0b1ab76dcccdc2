import { lazy } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { RequireMfaChallenge, RequireSignedIn, RequireSignedOut } from './guards';
import { RootLayout } from './root-layout';
import { OrgLayout } from './routes/org-layout';
import { SignedInLayout } from './signed-in-layout';

// Each screen is its own chunk, fetched when first visited (issue 12: a light first load); the
// frame (guards, layouts) is in the entry, and layouts show a loading state meanwhile.
const AccountRoute = lazy(() => import('./routes/account').then((module) => ({ default: module.AccountRoute })));
const ActionDetailRoute = lazy(() => import('./routes/action-detail').then((module) => ({ default: module.ActionDetailRoute })));
const ActionsRoute = lazy(() => import('./routes/actions').then((module) => ({ default: module.ActionsRoute })));
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password').then((module) => ({ default: module.ForgotPasswordRoute })));
const HomeRoute = lazy(() => import('./routes/home').then((module) => ({ default: module.HomeRoute })));
const InspectionDetailRoute = lazy(() => import('./routes/inspection-detail').then((module) => ({ default: module.InspectionDetailRoute })));
const InspectionsRoute = lazy(() => import('./routes/inspections').then((module) => ({ default: module.InspectionsRoute })));
const InvitationRoute = lazy(() => import('./routes/invitation').then((module) => ({ default: module.InvitationRoute })));
const MembersRoute = lazy(() => import('./routes/members').then((module) => ({ default: module.MembersRoute })));
const MfaRoute = lazy(() => import('./routes/mfa').then((module) => ({ default: module.MfaRoute })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((module) => ({ default: module.NotFoundRoute })));
const OrgDashboardRoute = lazy(() => import('./routes/org-dashboard').then((module) => ({ default: module.OrgDashboardRoute })));
const OrgsRoute = lazy(() => import('./routes/orgs').then((module) => ({ default: module.OrgsRoute })));
const ResetPasswordRoute = lazy(() => import('./routes/reset-password').then((module) => ({ default: module.ResetPasswordRoute })));
const SettingsRoute = lazy(() => import('./routes/settings').then((module) => ({ default: module.SettingsRoute })));
const SignInRoute = lazy(() => import('./routes/sign-in').then((module) => ({ default: module.SignInRoute })));
const SignUpRoute = lazy(() => import('./routes/sign-up').then((module) => ({ default: module.SignUpRoute })));
const SiteDetailRoute = lazy(() => import('./routes/site-detail').then((module) => ({ default: module.SiteDetailRoute })));
const SiteNewRoute = lazy(() => import('./routes/site-new').then((module) => ({ default: module.SiteNewRoute })));
const SitesRoute = lazy(() => import('./routes/sites').then((module) => ({ default: module.SitesRoute })));
const TemplateDetailRoute = lazy(() => import('./routes/template-detail').then((module) => ({ default: module.TemplateDetailRoute })));
const TemplatesRoute = lazy(() => import('./routes/templates').then((module) => ({ default: module.TemplatesRoute })));

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
