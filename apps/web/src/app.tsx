import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppErrorBoundary } from './components/app-error-boundary.tsx';
import { DelayedSpinner } from './components/delayed-spinner.tsx';
import { ProvidersProvider, useProviders } from './lib/providers.tsx';
import { type AppSessionStore, SessionProvider, useSession } from './lib/session.tsx';
import { createAppRouter } from './router.tsx';

/** SPEC §2: nothing renders until the session and the provider list have loaded. */
function AppGate() {
  const session = useSession();
  const providers = useProviders();
  const [router] = useState(createAppRouter);
  if (!session.isLoaded || !providers.isLoaded) return <DelayedSpinner />;
  return <RouterProvider router={router} />;
}

export function App({ session }: { session: AppSessionStore }) {
  return (
    <AppErrorBoundary>
      <SessionProvider store={session}>
        <ProvidersProvider>
          <AppGate />
        </ProvidersProvider>
      </SessionProvider>
    </AppErrorBoundary>
  );
}
