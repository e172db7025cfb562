import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { UPGRADE_TEXT } from './texts.ts';

/**
 * SPEC §2: 'Request professional status' for a user who is not professional (SPEC §1: any user may
 * apply; §6: a professional cannot open the upgrade page). Once their application is on file it
 * leads on to its payment (or says an administrator grants it, without card payments) instead of
 * asking for every answer again; the answers can still be changed. An administrator acting as the
 * user (proxy mode) is told that only the user can apply or pay for it (the server refuses both
 * then), without the links.
 */
export function ProfessionalCard({
  appliedAt,
  cardPayments,
  proxied,
}: {
  appliedAt: number | null;
  cardPayments: boolean;
  proxied: boolean;
}) {
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="professional-title" data-testid="professional-card">
      <Card.Body>
        <Card.Title as="h2" id="professional-title" className="h6">
          Request professional status
        </Card.Title>
        {proxied ? (
          <p className="mb-0 text-secondary" data-testid="professional-owner-only">
            {appliedAt !== null && `${UPGRADE_TEXT.applied} `}
            {UPGRADE_TEXT.ownerOnly}
          </p>
        ) : appliedAt === null ? (
          <>
            <p className="mb-2 text-secondary">
              Professional users register their own applications (OAuth client ID and secret) and use the API.
            </p>
            <Link to="/me/account/upgrade" className="btn btn-outline-primary btn-sm">
              Apply for professional status
            </Link>
          </>
        ) : (
          <>
            <p className="mb-2 text-secondary">
              {UPGRADE_TEXT.applied} {cardPayments ? UPGRADE_TEXT.payToFinish : UPGRADE_TEXT.notOnSale}
            </p>
            <div className="d-flex flex-wrap gap-2">
              {cardPayments && (
                <Link to="/me/account/upgrade/checkout" className="btn btn-primary btn-sm">
                  Continue to payment
                </Link>
              )}
              <Link to="/me/account/upgrade" className="btn btn-outline-secondary btn-sm">
                Change your answers
              </Link>
            </div>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
