import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_TEXT, DEFAULT_REFERRER_CREDITS, REFERRER_NAME_MAX, referrerCreateSchema } from '@router/shared';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CopyButton } from '../../components/copy-button.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useCall } from '../../lib/call.ts';
import { useProviders } from '../../lib/providers.tsx';
import { supportedProviders } from '../connectors/provider-search.ts';
import { AdminReferrerCreateDocument } from './documents.ts';
import { CreditsField } from './fields.tsx';
import { FormResult, numberValue, useAdminAction } from './form-result.tsx';
import { referrerLink } from './referrer-link.ts';

type Fields = z.input<typeof referrerCreateSchema>;

const LINK_TITLE = 'Referrer link';

/**
 * SPEC §2 Admin, referral campaigns: name, brokerage ('- None -'), credits; then its link, gone
 * again once that campaign is deleted (`deletedCode`): a dead link is not offered to copy.
 */
export function ReferrerCreateForm({ onDone, deletedCode }: { onDone: () => void; deletedCode: string | null }) {
  const id = useId();
  const { mutate } = useCall();
  const { providers } = useProviders();
  const [code, setCode] = useState<string | null>(null);
  const link = code && code !== deletedCode ? referrerLink(code) : null;
  const { outcome, run, clear } = useAdminAction(onDone);
  // Only brokers a referred user can connect here: not unavailable (nor unconfigured) ones.
  const options = useMemo(() => supportedProviders(providers.values()), [providers]);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, z.output<typeof referrerCreateSchema>>({
    resolver: zodResolver(referrerCreateSchema),
    defaultValues: { name: '', providerName: '', credits: DEFAULT_REFERRER_CREDITS },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(
    ({ name, providerName, credits }) =>
      run(async () => {
        setCode(null);
        const { adminReferrerCreate } = await mutate(AdminReferrerCreateDocument, {
          name: name ?? null,
          providerName: providerName ?? null,
          credits,
        });
        setCode(adminReferrerCreate.code.toLowerCase());
        return null;
      }),
    clear,
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create a referrer link">
      <div className="row g-sm-3">
        <TextField
          className="col-sm-5 mb-3"
          label="Name"
          autoComplete="off"
          maxLength={REFERRER_NAME_MAX}
          registration={register('name')}
          error={errors.name?.message}
        />
        <div className="col-sm-4 mb-3">
          <label className="form-label" htmlFor={`${id}-provider`}>
            Brokerage
          </label>
          <select id={`${id}-provider`} className="form-select" {...register('providerName')}>
            <option value="">- None -</option>
            {options.map((provider) => (
              <option key={provider.name} value={provider.name}>
                {provider.title}
              </option>
            ))}
          </select>
        </div>
        <CreditsField
          className="col-sm-3 mb-3"
          registration={register('credits', { setValueAs: numberValue })}
          error={errors.credits?.message}
        />
      </div>
      {/* A label only once there is a field to name: before, the title and the hint are text. */}
      {link ? (
        <div className="mb-3">
          <label className="form-label" htmlFor={`${id}-link`}>
            {LINK_TITLE}
          </label>
          <div className="input-group">
            <input id={`${id}-link`} className="form-control" value={link} readOnly />
            <CopyButton text={link} />
          </div>
        </div>
      ) : (
        <div className="mb-3">
          <div className="form-label">{LINK_TITLE}</div>
          <p className="form-text m-0">{ADMIN_TEXT.referrerLinkHint}</p>
        </div>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          Create
        </button>
        <FormResult outcome={outcome} />
      </div>
    </form>
  );
}
