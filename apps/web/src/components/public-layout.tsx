import { Link, Outlet } from 'react-router';
import { PRODUCT_NAME } from '../lib/links.ts';
import { AppFooter } from './shell/app-footer.tsx';

/** Frame of the screens outside /me: landing, FAQ, privacy, sign-in, sign-up, confirmation, reset, terms. */
export function PublicLayout() {
  return (
    <div className="d-flex flex-column min-vh-100 bg-body-tertiary">
      <header className="container py-3">
        <Link to="/" className="fw-semibold text-decoration-none fs-5 text-body">
          {PRODUCT_NAME}
        </Link>
      </header>
      <main id="main" className="container flex-grow-1 py-4">
        <Outlet />
      </main>
      <AppFooter className="container" />
    </div>
  );
}
