/** 'jane.doe@example.com' → 'jane.doe' */
export const localPart = (email: string): string => email.split('@')[0] ?? email;

/** SPEC §2: shown while an administrator acts as another user. */
export function ProxyBanner({ email }: { email: string }) {
  return (
    <div className="bg-danger text-white text-center small fw-semibold py-1 px-3 text-break" role="status">
      Switched to {localPart(email)}@
    </div>
  );
}
