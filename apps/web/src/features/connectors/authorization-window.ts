// SPEC §4 Connect flow for 'open' providers: the broker's authorization page in a popup, polled
// every 555 ms until it closes (the callback screen closes it), and closed by us after the
// connector time-out. A blocked popup sends the current window to the broker instead.
import { CONNECTOR_TIMEOUT_MS, POPUP_POLL_MS } from './constants.ts';

export interface AuthorizationWindow {
  /** Sends the window to the broker's authorization URL (or this window, if it was blocked). */
  navigate(requestUrl: string): void;
  /** Resolves once the window is closed (by the user, the callback or the time-out). */
  closed: Promise<void>;
  /** Closes it and stops watching (a failed start, an unmounted screen). */
  cancel(): void;
}

export interface AuthorizationWindowOptions {
  pollMs?: number;
  timeoutMs?: number;
  /** The current window's navigation when the popup is blocked. */
  assign?: (url: string) => void;
}

const FEATURES = 'popup=yes,width=520,height=720';

/**
 * Opens the window at once, inside the click that asked for it (browsers block popups opened
 * after an await), blank until `navigate` gives it the URL connectorCreate returned.
 */
export function openAuthorizationWindow(options: AuthorizationWindowOptions = {}): AuthorizationWindow {
  const pollMs = options.pollMs ?? POPUP_POLL_MS;
  const timeoutMs = options.timeoutMs ?? CONNECTOR_TIMEOUT_MS;
  const assign = options.assign ?? ((url: string) => window.location.assign(url));
  const popup = window.open('', 'broker-authorization', FEATURES);
  let poll: ReturnType<typeof setInterval> | undefined;
  let timeout: ReturnType<typeof setTimeout> | undefined;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const stop = () => {
    clearInterval(poll);
    clearTimeout(timeout);
  };
  const closePopup = () => {
    try {
      if (popup && !popup.closed) popup.close();
    } catch {
      // A window on another origin may refuse; it is out of our hands then.
    }
  };

  return {
    navigate(requestUrl) {
      if (!popup) {
        assign(requestUrl);
        return;
      }
      if (popup.closed) {
        resolveClosed();
        return;
      }
      popup.location.href = requestUrl;
      popup.focus();
      poll = setInterval(() => {
        if (!popup.closed) return;
        stop();
        resolveClosed();
      }, pollMs);
      timeout = setTimeout(closePopup, timeoutMs);
    },
    closed,
    cancel() {
      stop();
      closePopup();
    },
  };
}
