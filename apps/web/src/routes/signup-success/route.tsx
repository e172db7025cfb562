import { Link } from 'react-router';
import { PlaceholderScreen } from '../../components/placeholder-screen.tsx';

/** SPEC §2 Signup success (signed-in users are sent on by the route guard). */
export function Component() {
  return (
    <PlaceholderScreen title="Registration complete">
      <p>Thank you for the registration. Please check for the confirmation email to continue.</p>
      <Link to="/signin">Sign in</Link>
    </PlaceholderScreen>
  );
}
