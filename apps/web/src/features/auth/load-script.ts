// SPEC §7 External: third-party scripts load only when needed, with a 120000 ms time-out.
export const SCRIPT_TIMEOUT_MS = 120_000;

const pending = new Map<string, Promise<void>>();

/** Adds `<script src>` once per URL; resolves when it has run. A failure may be retried. */
export function loadScript(src: string, timeoutMs = SCRIPT_TIMEOUT_MS): Promise<void> {
  const known = pending.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    const timer = setTimeout(() => fail(new Error(`Loading ${src} timed out`)), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      pending.delete(src);
      script.remove();
      reject(error);
    }
    script.src = src;
    script.async = true;
    script.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    script.onerror = () => fail(new Error(`Cannot load ${src}`));
    document.head.append(script);
  });
  pending.set(src, loading);
  return loading;
}
