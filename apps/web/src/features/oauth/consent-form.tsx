import type { ConsentDetails } from '@router/shared';
import { AUTHORIZE_PATH } from './consent-api.ts';

/**
 * What the application may do, and 'Grant access': a plain form post to /api/oauth/authorize
 * with the screen's query string, carrying the session token (`access_token`) and the consent
 * token (`token`) as hidden fields (SPEC §7 REST). No script runs on the way back. It names the
 * signed-in account (someone with two accounts grants the one they mean), and warns when the
 * application asked for another email (the legacy variant's login_hint).
 */
export function ConsentForm({
  details,
  search,
  sessionToken,
  account,
}: {
  details: ConsentDetails;
  search: string;
  sessionToken: string;
  /** The signed-in user's email: whose brokerage accounts the application would reach. */
  account: string | null;
}) {
  const other = details.email && account && details.email.toLowerCase() !== account.toLowerCase();
  return (
    <form method="post" action={`${AUTHORIZE_PATH}${search}`}>
      <input type="hidden" name="access_token" value={sessionToken} />
      <input type="hidden" name="token" value={details.token ?? ''} />
      {account && (
        <p className="small">
          Signed in as <strong>{account}</strong>
        </p>
      )}
      {other && (
        <div className="alert alert-warning small py-2" role="alert">
          {details.client.name} asked for {details.email}: access would be granted to your account, {account}.
        </div>
      )}
      <p>
        <strong>{details.client.name}</strong> would like to:
      </p>
      <ul>
        {details.scopes.map((scope) => (
          <li key={scope.name}>{scope.description}</li>
        ))}
      </ul>
      {details.client.description && <p className="small text-secondary">{details.client.description}</p>}
      <p className="small text-secondary">You can revoke its access at any time in your settings.</p>
      <button type="submit" className="btn btn-primary w-100 mb-2">
        Grant access
      </button>
      <button type="submit" name="decision" value="deny" className="btn btn-link w-100">
        Cancel
      </button>
    </form>
  );
}
