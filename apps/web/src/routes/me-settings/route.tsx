import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useHashScroll } from '../../components/use-hash-scroll.ts';
import { AppsPanel } from '../../features/developer/apps-panel.tsx';
import { ApiTokensPanel } from '../../features/settings/api-tokens-panel.tsx';
import { AuthorizedAppsPanel } from '../../features/settings/authorized-apps-panel.tsx';
import { AuthorizedAppsDocument } from '../../features/settings/documents.ts';
import { PasswordChangeForm } from '../../features/settings/password-change-form.tsx';
import { SettingsMenu } from '../../features/settings/settings-menu.tsx';
import { SettingsSection } from '../../features/settings/settings-section.tsx';
import { ProfileForm } from '../../features/user/profile-form.tsx';
import { TwoFactorPanel } from '../../features/user/two-factor-panel.tsx';
import { useSession } from '../../lib/session.tsx';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';

interface Section {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * SPEC §2 Settings: general (name, email), password, two-factor and API token panels, the
 * authorized applications (only when there are any) and, for professionals, Applications.
 */
export function Component() {
  useDocumentTitle('Settings');
  // Deep links to a section (the recovery-code screen's /me/settings#two-factor) open at it.
  useHashScroll();
  const { user, isAdmin, isProfessional } = useSession();
  const [granted, refetchGranted] = useQuery({ query: AuthorizedAppsDocument, requestPolicy: 'cache-and-network' });
  // A reload that fails (after a revoke) keeps the grants as last read: hiding them would say that
  // no application has access any more.
  const grants = useLastLoaded(granted.data?.userTokens) ?? [];
  const sections: Section[] = [
    { id: 'general', title: 'General', body: user && <ProfileForm key={user.key} user={user} /> },
    { id: 'password', title: 'Password', body: <PasswordChangeForm /> },
    { id: 'two-factor', title: 'Two-factor authentication', body: <TwoFactorPanel /> },
    { id: 'api-tokens', title: 'API tokens', body: <ApiTokensPanel /> },
  ];
  if (grants.length > 0) {
    const reload = () => refetchGranted({ requestPolicy: 'network-only' });
    sections.push({
      id: 'authorized-apps',
      title: 'Authorized applications',
      body: <AuthorizedAppsPanel apps={grants} onChange={reload} />,
    });
  }
  if (isProfessional) sections.push({ id: 'applications', title: 'Applications', body: <AppsPanel /> });
  return (
    <>
      <h1 className="h3 mb-4">Settings</h1>
      <div className="row">
        <div className="col-lg-3">
          <SettingsMenu sections={sections.map(({ id, title }) => ({ id, label: title }))} isAdmin={isAdmin} />
        </div>
        <div className="col-lg-9" style={{ maxWidth: '52rem' }}>
          {sections.map((section) => (
            <SettingsSection key={section.id} id={section.id} title={section.title}>
              {section.body}
            </SettingsSection>
          ))}
        </div>
      </div>
    </>
  );
}
