import { Link } from 'react-router';
import { supportHref, useSite } from '../../features/site/use-site.ts';
import { FAQ_PATH, PRIVACY_PATH, PRODUCT_NAME, TERMS_PATH } from '../../lib/links.ts';

/** SPEC §2 Navigation footer, on the /me screens and the public ones. */
export function AppFooter({ className = 'border-top px-3 px-lg-4' }: { className?: string }) {
  const site = useSite();
  const support = supportHref(site?.supportEmail);
  return (
    <footer className={`${className} py-3 small text-secondary d-flex flex-wrap gap-3 justify-content-between`}>
      <nav className="d-flex flex-wrap gap-3" aria-label="Footer">
        <Link className="link-secondary tap-link" to={FAQ_PATH}>
          General FAQs
        </Link>
        {support.startsWith('mailto:') ? (
          <a className="link-secondary tap-link" href={support}>
            Contact Support
          </a>
        ) : (
          <Link className="link-secondary tap-link" to={support}>
            Contact Support
          </Link>
        )}
        <Link className="link-secondary tap-link" to={TERMS_PATH}>
          Terms of service
        </Link>
        <Link className="link-secondary tap-link" to={PRIVACY_PATH}>
          Privacy policy
        </Link>
      </nav>
      <span>© 2023-25 {PRODUCT_NAME}</span>
    </footer>
  );
}
