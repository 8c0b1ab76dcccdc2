import { isValidElement, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { createBrowserRouter, matchRoutes, type Params, type RouteObject } from 'react-router-dom';
import { RouteError } from './app-error';
import { RequireMfaChallenge, RequireSignedIn, RequireSignedOut } from './guards';
import { RootLayout } from './root-layout';
import { OrgLayout } from './routes/org-layout';
import { SignedInLayout } from './signed-in-layout';

type Screen = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * A screen loaded on demand, which can also be asked to load ahead of its first render. Once its
 * code is here, the lazy component gets it synchronously (a thenable that calls back at once), so
 * React renders it without suspending: a suspended screen would show its fallback and then wait
 * for React's Suspense reveal throttle (300 ms) even though nothing is left to load.
 */
function screen<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): Screen {
  let loading: Promise<Module> | undefined;
  let loaded: { default: ComponentType } | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = { default: pick(module) };
      return module;
    }));
  const component = lazy(() => {
    if (loaded) {
      const ready = loaded;
      return { then: (resolve: (value: { default: ComponentType }) => void) => resolve(ready) } as unknown as Promise<{ default: ComponentType }>;
    }
    return preload().then(() => loaded!);
  });
  return Object.assign(component, { preload });
}

/** A screen's module may name the data its first render asks for, to be asked for sooner. */
interface ScreenModule {
  prefetchData?: (params: Params) => void;
}

/**
 * Starts loading the screen in a route's element (under its guards), if it is one, and once its
 * code is here the data it will ask for first, if its module says (`prefetchData`).
 */
function preloadScreenIn(element: ReactNode, params: Params): void {
  if (!isValidElement<{ children?: ReactNode }>(element)) return;
  const type = element.type as Partial<Screen>;
  if (typeof type.preload === 'function') void type.preload().then((module) => (module as ScreenModule).prefetchData?.(params)).catch(() => undefined);
  else preloadScreenIn(element.props.children, params);
}

// Each screen is its own chunk, fetched when first visited (issue 12: a light first load); the
// frame (guards, layouts) is in the entry, and layouts show a loading state meanwhile.
const AccountRoute = screen(() => import('./routes/account'), (module) => module.AccountRoute);
const ApiDocsRoute = screen(() => import('./routes/api-docs'), (module) => module.ApiDocsRoute);
const ActionDetailRoute = screen(() => import('./routes/action-detail'), (module) => module.ActionDetailRoute);
const ActionsRoute = screen(() => import('./routes/actions'), (module) => module.ActionsRoute);
const AnalyticsRoute = screen(() => import('./routes/analytics'), (module) => module.AnalyticsRoute);
const ForgotPasswordRoute = screen(() => import('./routes/forgot-password'), (module) => module.ForgotPasswordRoute);
const HomeRoute = screen(() => import('./routes/home'), (module) => module.HomeRoute);
const InspectionDetailRoute = screen(() => import('./routes/inspection-detail'), (module) => module.InspectionDetailRoute);
const InspectionsRoute = screen(() => import('./routes/inspections'), (module) => module.InspectionsRoute);
const InvitationRoute = screen(() => import('./routes/invitation'), (module) => module.InvitationRoute);
const MembersRoute = screen(() => import('./routes/members'), (module) => module.MembersRoute);
const MfaRoute = screen(() => import('./routes/mfa'), (module) => module.MfaRoute);
const NotFoundRoute = screen(() => import('./routes/not-found'), (module) => module.NotFoundRoute);
const OrgDashboardRoute = screen(() => import('./routes/org-dashboard'), (module) => module.OrgDashboardRoute);
const OrgsRoute = screen(() => import('./routes/orgs'), (module) => module.OrgsRoute);
const ResetPasswordRoute = screen(() => import('./routes/reset-password'), (module) => module.ResetPasswordRoute);
// The schedule screens are one chunk (routes/schedules.tsx), loaded by one call: one name and one
// list of its chunks in the entry chunk, not three.
const loadScheduleScreens = () => import('./routes/schedules');
const CalendarRoute = screen(loadScheduleScreens, (module) => module.CalendarRoute);
const ScheduleDetailRoute = screen(loadScheduleScreens, (module) => module.ScheduleDetailRoute);
const SchedulesRoute = screen(loadScheduleScreens, (module) => module.SchedulesRoute);
const SettingsRoute = screen(() => import('./routes/settings'), (module) => module.SettingsRoute);
const SignInRoute = screen(() => import('./routes/sign-in'), (module) => module.SignInRoute);
const SignUpRoute = screen(() => import('./routes/sign-up'), (module) => module.SignUpRoute);
const SiteDetailRoute = screen(() => import('./routes/site-detail'), (module) => module.SiteDetailRoute);
const SiteNewRoute = screen(() => import('./routes/site-new'), (module) => module.SiteNewRoute);
const SitesRoute = screen(() => import('./routes/sites'), (module) => module.SitesRoute);
const TemplateDetailRoute = screen(() => import('./routes/template-detail'), (module) => module.TemplateDetailRoute);
const TemplatesRoute = screen(() => import('./routes/templates'), (module) => module.TemplatesRoute);

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // No error leaves a blank page (issue 23): a screen that fails shows what to do next instead.
    errorElement: <RouteError />,
    children: [
      { path: '/sign-in', element: <RequireSignedOut><SignInRoute /></RequireSignedOut> },
      { path: '/sign-up', element: <RequireSignedOut><SignUpRoute /></RequireSignedOut> },
      { path: '/forgot-password', element: <RequireSignedOut><ForgotPasswordRoute /></RequireSignedOut> },
      // Reached from the mailed link with a fresh recovery session, so it has no guard of its own.
      { path: '/reset-password', element: <ResetPasswordRoute /> },
      { path: '/mfa', element: <RequireMfaChallenge><MfaRoute /></RequireMfaChallenge> },
      // Open signed in or out: signed out, it offers sign-in and sign-up that come back here.
      { path: '/invitations/:token', element: <InvitationRoute /> },
      // The API reference (openapi.json rendered), for signed-in users and other services' developers alike.
      { path: '/api-docs', element: <ApiDocsRoute /> },
      {
        element: <RequireSignedIn><SignedInLayout /></RequireSignedIn>,
        children: [
          {
            // Inside the frame: a failed screen keeps the header and the tab bar, so the user can go elsewhere.
            errorElement: <RouteError />,
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
                  { path: 'schedules', element: <SchedulesRoute /> },
                  { path: 'schedules/:scheduleId', element: <ScheduleDetailRoute /> },
                  { path: 'calendar', element: <CalendarRoute /> },
                  { path: 'analytics', element: <AnalyticsRoute /> },
                  { path: 'members', element: <MembersRoute /> },
                  { path: 'settings', element: <SettingsRoute /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

// The screen of the address the app opens on starts loading at once, beside the session and the
// first data, rather than when its layout first renders it: a screen that suspends waits for
// React's Suspense reveal throttle too (docs/offline.md, "Weight"). Its data follows as soon as it can.
for (const match of matchRoutes(routes, window.location) ?? []) preloadScreenIn(match.route.element, match.params);

export const router = createBrowserRouter(routes);
