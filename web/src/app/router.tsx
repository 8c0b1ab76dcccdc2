import { createBrowserRouter } from 'react-router-dom';
import { RequireMfaChallenge, RequireSignedIn, RequireSignedOut } from './guards';
import { RootLayout } from './root-layout';
import { AccountRoute } from './routes/account';
import { ForgotPasswordRoute } from './routes/forgot-password';
import { HomeRoute } from './routes/home';
import { MfaRoute } from './routes/mfa';
import { NotFoundRoute } from './routes/not-found';
import { ResetPasswordRoute } from './routes/reset-password';
import { SignInRoute } from './routes/sign-in';
import { SignUpRoute } from './routes/sign-up';

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
      { path: '/', element: <RequireSignedIn><HomeRoute /></RequireSignedIn> },
      { path: '/account', element: <RequireSignedIn><AccountRoute /></RequireSignedIn> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);
