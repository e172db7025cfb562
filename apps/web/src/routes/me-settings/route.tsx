import { useDocumentTitle } from '../../components/use-document-title.ts';
import { ApiTokensPanel } from '../../features/settings/api-tokens-panel.tsx';
import { SettingsMenu } from '../../features/settings/settings-menu.tsx';
import { SettingsSection } from '../../features/settings/settings-section.tsx';
import { ProfileForm } from '../../features/user/profile-form.tsx';
import { TwoFactorPanel } from '../../features/user/two-factor-panel.tsx';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 Settings: general (name, email), two-factor and API token panels. Authorized
 * applications and developer Applications come with the OAuth apps release.
 */
export function Component() {
  useDocumentTitle('Settings');
  const { user, isAdmin } = useSession();
  return (
    <>
      <h1 className="h3 mb-4">Settings</h1>
      <div className="row">
        <div className="col-lg-3">
          <SettingsMenu isAdmin={isAdmin} />
        </div>
        <div className="col-lg-9" style={{ maxWidth: '52rem' }}>
          <SettingsSection id="general" title="General">
            {user && <ProfileForm key={user.key} user={user} />}
          </SettingsSection>
          <SettingsSection id="two-factor" title="Two-factor authentication">
            <TwoFactorPanel />
          </SettingsSection>
          <SettingsSection id="api-tokens" title="API tokens">
            <ApiTokensPanel />
          </SettingsSection>
        </div>
      </div>
    </>
  );
}
