import { Link, Outlet } from 'react-router';
import { PRODUCT_NAME, TERMS_PATH } from '../lib/links.ts';

/** Frame of the screens outside /me: sign-in, sign-up, confirmation, reset, terms. */
export function PublicLayout() {
  return (
    <div className="d-flex flex-column min-vh-100 bg-body-tertiary">
      <header className="container py-3">
        <Link to="/" className="fw-semibold text-decoration-none fs-5 text-body">
          {PRODUCT_NAME}
        </Link>
      </header>
      <main className="container flex-grow-1 py-4">
        <Outlet />
      </main>
      <footer className="container py-3 small text-secondary">
        <Link to={TERMS_PATH} className="link-secondary">
          Terms of service
        </Link>
      </footer>
    </div>
  );
}
