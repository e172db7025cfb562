import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { RouteError } from './route-error.tsx';

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
        children: [
          { index: true, lazy: () => Promise.reject(new Error('Failed to fetch dynamically imported module')) },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);
    expect((await screen.findByRole('heading')).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeTruthy();
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
