import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';

/** SPEC §2: 'Request professional status' for a user who is not professional (SPEC §6: they cannot open the upgrade page). */
export function ProfessionalCard() {
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="professional-title">
      <Card.Body>
        <Card.Title as="h2" id="professional-title" className="h6">
          Request professional status
        </Card.Title>
        <p className="mb-2 text-secondary">
          Professional users register their own applications (OAuth client ID and secret) and use the API.
        </p>
        <Link to="/me/account/upgrade" className="btn btn-outline-primary btn-sm">
          Apply for professional status
        </Link>
      </Card.Body>
    </Card>
  );
}
