import { PlaceholderScreen } from '../../components/placeholder-screen.tsx';

/** SPEC §2: the reporting screen is a placeholder by design. */
export function Component() {
  return (
    <PlaceholderScreen title="Reporting?">
      <p>In progress...</p>
    </PlaceholderScreen>
  );
}
