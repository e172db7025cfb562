import Nav from 'react-bootstrap/Nav';
import { NavLink } from 'react-router';
import { navItemsFor } from './nav-items.ts';

export function SidebarNav({
  isAdmin,
  onNavigate,
  onSignOut,
}: {
  isAdmin: boolean;
  onNavigate: () => void;
  onSignOut: () => void;
}) {
  return (
    <Nav as="nav" className="flex-column gap-1 w-100" aria-label="Main">
      {navItemsFor(isAdmin).map((item) => (
        <Nav.Link key={item.to} as={NavLink} to={item.to} end={item.end} onClick={onNavigate} data-tour={item.tour}>
          {item.label}
        </Nav.Link>
      ))}
      <hr className="border-secondary" />
      <Nav.Link as="button" type="button" className="text-start" onClick={onSignOut}>
        Logout
      </Nav.Link>
    </Nav>
  );
}
