import { TokenSecret } from '../settings/token-secret.tsx';

/** A webhook setting's new signing secret: shown this once, with copy-to-clipboard. */
export function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <TokenSecret
      secret={secret}
      onDone={onDone}
      label="Webhook signing secret"
      hint="Copy it now: it is shown only once. Your receiver checks every webhook's signature with it (see “How to verify webhooks” below)."
    />
  );
}
