import { PlaceholderScreen } from '../../components/placeholder-screen.tsx';

/** Placeholder until this screen is built (SPEC §2). */
export function Component() {
  return <PlaceholderScreen title="Brokers & Webhooks" />;
}
