import { Link } from 'react-router';
import { FAQ_URL, PRIVACY_URL, PRODUCT_NAME, SUPPORT_URL, TERMS_PATH } from '../../lib/links.ts';

const isExternal = (url: string) => !url.startsWith('/');

function FooterLink({ to, children }: { to: string; children: string }) {
  return isExternal(to) ? (
    <a className="link-secondary" href={to} target="_blank" rel="noreferrer">
      {children}
    </a>
  ) : (
    <Link className="link-secondary" to={to}>
      {children}
    </Link>
  );
}

/** SPEC §2 Navigation footer. */
export function AppFooter() {
  return (
    <footer className="border-top px-3 px-lg-4 py-3 small text-secondary d-flex flex-wrap gap-3 justify-content-between">
      <nav className="d-flex flex-wrap gap-3" aria-label="Footer">
        <FooterLink to={FAQ_URL}>General FAQs</FooterLink>
        <FooterLink to={SUPPORT_URL}>Contact Support</FooterLink>
        <FooterLink to={TERMS_PATH}>Terms of service</FooterLink>
        <FooterLink to={PRIVACY_URL}>Privacy policy</FooterLink>
      </nav>
      <span>© 2023-25 {PRODUCT_NAME}</span>
    </footer>
  );
}
