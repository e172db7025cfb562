import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ProvidersProvider, useProviders } from '../lib/providers.tsx';
import { createAppSession, SessionProvider } from '../lib/session.tsx';
import { TOKEN_KEY } from '../lib/storage.ts';
import { routes } from '../router.tsx';
import { type FakeHandler, type FakeUser, fakeGraphQL } from './fake-server.ts';

export interface RenderRouteOptions {
  /** The signed-in user (a session token is stored for it); none: signed out. */
  user?: FakeUser | null;
  handlers?: Record<string, FakeHandler>;
  /** Router state of the first entry, e.g. `{ from }`. */
  state?: unknown;
}

/** As the app does (SPEC §2): routes render once the provider list has loaded. */
function ProvidersLoaded({ children }: { children: ReactNode }) {
  return useProviders().isLoaded ? children : null;
}

/** The whole app's route table at `path`, on a fake GraphQL server answering `handlers`. */
export async function renderRoute(path: string, options: RenderRouteOptions = {}) {
  if (options.user) localStorage.setItem(TOKEN_KEY, 'session-token');
  const server = fakeGraphQL({ user: options.user ?? null, handlers: options.handlers ?? {} });
  const session = createAppSession({ fetch: server.fetch });
  await session.start({ href: `http://localhost${path}` });
  const url = new URL(path, 'http://localhost');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: url.pathname, search: url.search, hash: url.hash, state: options.state }],
  });
  render(
    <SessionProvider store={session}>
      <ProvidersProvider>
        <ProvidersLoaded>
          <RouterProvider router={router} />
        </ProvidersLoaded>
      </ProvidersProvider>
    </SessionProvider>,
  );
  await screen.findByRole('heading', { level: 1 });
  return { router, session, server, calls: (name: string) => server.requests.filter((r) => r.name === name) };
}

export const fill = (label: string | RegExp, value: string): void => {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
};

export const click = (name: string | RegExp): void => {
  fireEvent.click(screen.getByRole('button', { name }));
};

/** The current address of a memory router, query included. */
export const where = (router: { state: { location: { pathname: string; search: string } } }): string =>
  router.state.location.pathname + router.state.location.search;
