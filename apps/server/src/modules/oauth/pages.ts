// The HTML pages the OAuth flow answers itself. No scripts and no inline styles, so they
// work under a strict Content-Security-Policy.

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" type="image/svg+xml" href="/favicon.svg">${head}<title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>`;
}

/** An OAuth error the browser cannot be sent back with (unknown client, wrong redirect URI). */
export function errorPage(error: string, description: string | undefined): string {
  return page(
    'Authorization failed',
    `<p>${escapeHtml(description ?? error)}</p><p><code>${escapeHtml(error)}</code></p><p><a href="/">Back to Signal Router</a></p>`,
  );
}

/**
 * After consent, the way back to the provider and on to the application. A page rather than a
 * redirect: Chromium applies the consent form's CSP `form-action` to every redirect that follows
 * a form submission, and the last one leaves for the application's origin. A new navigation is
 * not a form submission.
 */
export function continuePage(url: string): string {
  const href = escapeHtml(url);
  return page(
    'Returning to the application',
    `<p>You are being returned to the application.</p><p><a href="${href}">Continue</a></p>`,
    `<meta http-equiv="refresh" content="0;url=${href}">`,
  );
}

/**
 * The end_session_endpoint's question (RP-initiated logout, an application's sign-out): the
 * provider's form (`op.logoutForm` with its xsrf field) and its two answers. Signing out ends the
 * provider's short browser session only: the applications' grants stay (tokens outlive it).
 */
export function logoutPage(form: string): string {
  return page(
    'Sign out',
    `<p>Sign out of Signal Router in this browser? The applications you authorized keep their access; revoke it in Settings.</p>${form}<p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button></p>`,
  );
}

/** After the sign-out, when the application named no post-logout address to return to. */
export function signedOutPage(application: string | undefined): string {
  const from = application ? ` from ${escapeHtml(application)}` : '';
  return page('Signed out', `<p>You signed out${from}.</p><p><a href="/">Back to Signal Router</a></p>`);
}
