import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { DelayedSpinner } from './components/delayed-spinner.tsx';
import { Guard } from './components/guard.tsx';
import { PublicLayout } from './components/public-layout.tsx';
import { RouteError } from './components/route-error.tsx';
import type { Access } from './lib/access.ts';
import { GROUP_ADMIN, GROUP_CUSTOMER, GROUP_PROFESSIONAL } from './lib/groups.ts';

// SPEC §2 route table. Every screen is a lazy chunk (routes/<name>/route.tsx exporting
// `Component`); only the guard and the frames load with the app.
const PUBLIC: Access = { kind: 'public' };
const GUEST: Access = { kind: 'guest' };
const SIGNED_IN: Access = { kind: 'member' };
const CUSTOMER: Access = { kind: 'member', groups: [GROUP_CUSTOMER] };
const ADMIN: Access = { kind: 'member', groups: [GROUP_ADMIN], whileProxied: true };
const UPGRADE: Access = { kind: 'member', groups: [GROUP_CUSTOMER], deny: [GROUP_PROFESSIONAL] };

const guarded = (access: Access, children: RouteObject[]): RouteObject => ({
  element: <Guard access={access} />,
  children,
});

const toMe = <Navigate to="/me" replace />;

export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    hydrateFallbackElement: <DelayedSpinner />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          guarded(GUEST, [
            // The landing page; signed-in users go on to /me (SPEC §2: an index screen redirects).
            { index: true, lazy: () => import('./routes/landing/route.tsx') },
            { path: 'signin', lazy: () => import('./routes/signin/route.tsx') },
            { path: 'signup/:referrer?', lazy: () => import('./routes/signup/route.tsx') },
            { path: 'signup/success', lazy: () => import('./routes/signup-success/route.tsx') },
          ]),
          guarded(PUBLIC, [
            { path: 'signin/oauth', lazy: () => import('./routes/signin-oauth/route.tsx') },
            { path: 'signin/partner', lazy: () => import('./routes/signin-partner/route.tsx') },
            { path: 'signin/multifactor', lazy: () => import('./routes/signin-multifactor/route.tsx') },
            { path: 'signup/checkout', lazy: () => import('./routes/signup-checkout/route.tsx') },
            { path: 'auth/email', lazy: () => import('./routes/auth-email/route.tsx') },
            { path: 'auth/password', lazy: () => import('./routes/auth-password/route.tsx') },
            { path: 'auth/password/request', lazy: () => import('./routes/auth-password-request/route.tsx') },
            { path: 'terms-of-service', lazy: () => import('./routes/terms-of-service/route.tsx') },
            { path: 'faq', lazy: () => import('./routes/faq/route.tsx') },
            { path: 'privacy', lazy: () => import('./routes/privacy/route.tsx') },
          ]),
          guarded(CUSTOMER, [
            {
              path: 'signin/multifactor/recall',
              lazy: () => import('./routes/signin-multifactor-recall/route.tsx'),
            },
            { path: 'callback/:providerName?', lazy: () => import('./routes/callback/route.tsx') },
          ]),
        ],
      },
      {
        path: 'me',
        element: <Guard access={SIGNED_IN} />,
        children: [
          {
            lazy: () => import('./components/shell/me-layout.tsx'),
            children: [
              guarded(CUSTOMER, [
                { index: true, lazy: () => import('./routes/me/route.tsx') },
                { path: 'report', lazy: () => import('./routes/me-report/route.tsx') },
                { path: 'connector/:providerName?', lazy: () => import('./routes/me-connector/route.tsx') },
                { path: 'paper/:connectorKey/:accountId', lazy: () => import('./routes/me-paper/route.tsx') },
                { path: 'account', lazy: () => import('./routes/me-account/route.tsx') },
                {
                  path: 'account/upgrade/checkout',
                  lazy: () => import('./routes/me-account-upgrade-checkout/route.tsx'),
                },
                {
                  path: 'account/upgrade/success',
                  lazy: () => import('./routes/me-account-upgrade-success/route.tsx'),
                },
                { path: 'settings', lazy: () => import('./routes/me-settings/route.tsx') },
                {
                  path: 'settings/two-factor',
                  lazy: () => import('./routes/me-settings-two-factor/route.tsx'),
                },
                {
                  path: 'documentation/:providerName?',
                  lazy: () => import('./routes/me-documentation/route.tsx'),
                },
              ]),
              guarded(UPGRADE, [
                { path: 'account/upgrade', lazy: () => import('./routes/me-account-upgrade/route.tsx') },
              ]),
              guarded(ADMIN, [{ path: 'admin', lazy: () => import('./routes/me-admin/route.tsx') }]),
              { path: '*', element: toMe },
            ],
          },
        ],
      },
      { path: '*', element: toMe },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
