import { useReducer, useState } from 'react';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { AuditLogPanel } from '../../features/admin/audit-log-panel.tsx';
import { ProfessionalForm } from '../../features/admin/professional-form.tsx';
import { ProxyForm } from '../../features/admin/proxy-form.tsx';
import { ReferrerCreateForm } from '../../features/admin/referrer-create-form.tsx';
import { ReferrerDeleteForm } from '../../features/admin/referrer-delete-form.tsx';
import { RewardForm } from '../../features/admin/reward-form.tsx';
import { StatsDownload } from '../../features/admin/stats-download.tsx';
import { SettingsSection } from '../../features/settings/settings-section.tsx';

/**
 * SPEC §2 Admin: proxied user, reward signals, referral campaigns and their stats; beyond SPEC,
 * professional status and the audit log (issue 15), reloaded after each action here.
 */
export function Component() {
  useDocumentTitle('Admin');
  const [auditVersion, auditChanged] = useReducer((n: number) => n + 1, 0);
  const [deletedCode, setDeletedCode] = useState<string | null>(null);
  return (
    <>
      <h1 className="h3 mb-4">Admin</h1>
      <div className="row">
        <div className="col-xl-6">
          <SettingsSection id="proxy" title="Proxied user">
            <ProxyForm onDone={auditChanged} />
          </SettingsSection>
          <SettingsSection id="reward" title="Reward signals">
            <RewardForm onDone={auditChanged} />
          </SettingsSection>
          <SettingsSection id="professional" title="Professional status">
            <ProfessionalForm onDone={auditChanged} />
          </SettingsSection>
        </div>
        <div className="col-xl-6">
          <SettingsSection id="referrals" title="Referral campaigns">
            <ReferrerCreateForm onDone={auditChanged} deletedCode={deletedCode} />
            <hr />
            <ReferrerDeleteForm onDone={auditChanged} onDeleted={setDeletedCode} />
            <hr />
            <StatsDownload onDone={auditChanged} />
          </SettingsSection>
        </div>
      </div>
      <AuditLogPanel key={auditVersion} />
    </>
  );
}
