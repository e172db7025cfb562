import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes and their chunks load slowly on a busy 2-core CI machine: findBy*/waitFor wait
// up to 10 s. The default 1 s, then 5 s, made tests fail under load (a route's first render took
// 0.9 s alone and 3 s with the cores busy), not because the screens were wrong.
configure({ asyncUtilTimeout: 10_000 });

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
