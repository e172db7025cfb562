import { useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { PRODUCT_NAME } from '../../lib/links.ts';
import { AdminReferrerStatsReportDocument } from './documents.ts';
import { FormResult, useAdminAction } from './form-result.tsx';

/** 'Signal Router' → 'signal-router-referrers.csv' (SPEC §2: named for the product's referrers). */
export const STATS_FILE_NAME = `${PRODUCT_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-referrers.csv`;

/** Saves text as a file through a temporary object URL. */
function saveFile(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** SPEC §2 Admin 'Download stats': the campaigns' CSV, always fresh (network-only). */
export function StatsDownload({ onDone }: { onDone: () => void }) {
  const { query } = useCall();
  const [busy, setBusy] = useState(false);
  const { outcome, run } = useAdminAction(onDone);

  async function download() {
    setBusy(true);
    await run(async () => {
      const { adminReferrerStatsReport } = await query(
        AdminReferrerStatsReportDocument,
        {},
        { requestPolicy: 'network-only' },
      );
      saveFile(adminReferrerStatsReport, STATS_FILE_NAME, 'text/csv;charset=utf-8');
      return null;
    });
    setBusy(false);
  }

  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <button type="button" className="btn btn-outline-primary" disabled={busy} onClick={() => void download()}>
        Download stats
      </button>
      <FormResult outcome={outcome} />
    </div>
  );
}
