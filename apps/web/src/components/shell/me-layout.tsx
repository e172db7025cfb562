import { useRef, useState } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, Outlet } from 'react-router';
import { useSignOut } from '../../features/auth/use-sign-out.ts';
import { CreditsBanner } from '../../features/billing/credits-banner.tsx';
import { LiveProvider } from '../../features/live/live-provider.tsx';
import { PRODUCT_NAME } from '../../lib/links.ts';
import { useSession } from '../../lib/session.tsx';
import { AppFooter } from './app-footer.tsx';
import { ProxyBanner } from './proxy-banner.tsx';
import { SidebarNav } from './sidebar-nav.tsx';
import { useFocusOnNavigation } from './use-focus-on-navigation.ts';

/** The /me frame: sidebar (an off-canvas drawer below lg), proxy and low-credit banners, content, footer. */
export function Component() {
  const session = useSession();
  const signOut = useSignOut();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const close = () => setDrawerOpen(false);
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main, 'app-menu');
  // A menu item chosen in the drawer: the new screen keeps the focus, not the menu button.
  const navigated = useRef(false);
  const navigate = () => {
    navigated.current = drawerOpen;
    close();
  };

  // Live updates for the whole frame: the low-credit banner reloads with the screen's figures.
  return (
    <LiveProvider>
      <div className="d-lg-flex min-vh-100">
        <a
          href="#main"
          className="visually-hidden-focusable position-absolute top-0 start-0 m-2 p-2 bg-body rounded z-3"
        >
          Skip to content
        </a>
        <aside className="app-sidebar text-bg-dark">
          <Offcanvas
            id="app-menu"
            responsive="lg"
            show={drawerOpen}
            onHide={close}
            restoreFocus={!navigated.current}
            onExited={() => {
              if (navigated.current) main.current?.focus({ preventScroll: true });
              navigated.current = false;
            }}
            placement="start"
            className="app-menu text-bg-dark"
            data-bs-theme="dark"
            aria-labelledby="app-sidebar-title"
          >
            <Offcanvas.Header closeButton>
              <Offcanvas.Title id="app-sidebar-title">{PRODUCT_NAME}</Offcanvas.Title>
            </Offcanvas.Header>
            <Offcanvas.Body className="d-flex flex-column p-3">
              <Link to="/me" className="d-none d-lg-block fs-5 fw-semibold text-white text-decoration-none mb-4">
                {PRODUCT_NAME}
              </Link>
              <SidebarNav
                isAdmin={session.isAdmin || Boolean(session.proxiedUser)}
                onNavigate={navigate}
                onSignOut={() => void signOut()}
              />
            </Offcanvas.Body>
          </Offcanvas>
        </aside>
        <div className="d-flex flex-column flex-grow-1 min-width-0 min-vh-100">
          {session.proxiedUser && <ProxyBanner email={session.proxiedUser} />}
          <CreditsBanner />
          <header className="d-lg-none d-flex align-items-center gap-2 border-bottom px-3 py-2">
            <button
              type="button"
              className="app-menu-toggle btn btn-outline-secondary btn-sm"
              onClick={() => setDrawerOpen(true)}
              aria-label="Open menu"
              aria-controls="app-menu"
              aria-expanded={drawerOpen}
            >
              ☰
            </button>
            <Link to="/me" className="fw-semibold text-body text-decoration-none">
              {PRODUCT_NAME}
            </Link>
          </header>
          <main ref={main} id="main" tabIndex={-1} className="flex-grow-1 p-3 p-lg-4">
            <Outlet />
          </main>
          <AppFooter />
        </div>
      </div>
    </LiveProvider>
  );
}
