import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { RouteError, SCREEN_NOT_LOADED } from './route-error.tsx';

function Thrower(): never {
  throw new Error('render exploded');
}

describe('error screens (SPEC §2)', () => {
  it("route errors read 'Unexpected Application Error!' with the message below", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([
      {
        path: '/',
        errorElement: <RouteError />,
        children: [{ index: true, lazy: () => Promise.reject(new Error('render exploded in a loader')) }],
      },
    ]);
    render(<RouterProvider router={router} />);
    expect((await screen.findByRole('heading')).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByText('render exploded in a loader')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
  });

  it('says a screen that could not be downloaded (offline, or the app updated meanwhile) needs a reload, and offers it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const gone = new TypeError('Failed to fetch dynamically imported module: http://app.test/assets/route-3f2a.js');
    const router = createMemoryRouter([
      { path: '/', errorElement: <RouteError />, children: [{ index: true, lazy: () => Promise.reject(gone) }] },
    ]);
    render(<RouterProvider router={router} />);
    expect((await screen.findByRole('heading')).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByText(SCREEN_NOT_LOADED)).toBeTruthy();
    expect(screen.queryByText(/assets\/route-3f2a\.js/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it('route error responses show status and text', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([{ path: '/', element: <p>home</p>, errorElement: <RouteError /> }], {
      initialEntries: ['/missing'],
    });
    render(<RouterProvider router={router} />);
    expect((await screen.findByRole('heading')).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByText('404 Not Found')).toBeTruthy();
  });

  it("the top-level boundary shows ':(' and 'Something went wrong'", () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <AppErrorBoundary>
        <Thrower />
      </AppErrorBoundary>,
    );
    expect(screen.getByText(':(')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('Something went wrong');
  });
});
