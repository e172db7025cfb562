import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy routes and their chunks load slowly on a busy 2-core CI machine: findBy*/waitFor wait
// up to 10 s. The default 1 s, then 5 s, made tests fail under load (a route's first render took
// 0.9 s alone and 3 s with the cores busy), not because the screens were wrong.
configure({ asyncUtilTimeout: 10_000 });
// vi.waitFor gives up after 1 s unless told otherwise: the same 10 s.
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: 10_000, ...options })) as typeof vi.waitFor;

// jsdom has no matchMedia; react-bootstrap's responsive Offcanvas asks it for the breakpoint.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
