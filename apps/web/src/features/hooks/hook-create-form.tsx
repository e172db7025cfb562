import { zodResolver } from '@hookform/resolvers/zod';
import { hookCreateSchema } from '@router/shared';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { cancelOnEscape } from '../../components/cancel-on-escape.ts';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import type { ConnectorAccount } from '../connectors/connector-model.ts';

const formSchema = hookCreateSchema.omit({ connectorKey: true });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

/** SPEC §2 hook create: name, account (of this connector), test flag; Cancel or Escape closes it unsaved. */
export function HookCreateForm({
  accounts,
  initialAccountId,
  onCreate,
  onCancel,
}: {
  accounts: readonly ConnectorAccount[];
  initialAccountId?: string | undefined;
  onCreate: (values: FormOutput) => Promise<string | null>;
  onCancel: () => void;
}) {
  const id = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', accountId: initialAccountId ?? accounts[0]?.id ?? '', isTest: false },
  });
  // Each attempt's refusal is a new alert, focused even when it says what the last one said.
  const [attempt, setAttempt] = useState(0);
  const onSubmit = handleSubmit(async (values) => {
    setAttempt((n) => n + 1);
    setFailure(await onCreate(values));
  });
  const nameError = formState.errors.name?.message;
  const accountError = formState.errors.accountId?.message;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="border rounded p-3 bg-body-tertiary"
      aria-label="New webhook"
      onKeyDown={cancelOnEscape(onCancel)}
    >
      <div className="row g-2">
        <div className="col-12 col-md-5">
          <label className="form-label small" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className={`form-control${nameError ? ' is-invalid' : ''}`}
            placeholder="Webhook"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            // biome-ignore lint/a11y/noAutofocus: the form opens because the user asked for it
            autoFocus
            {...register('name')}
          />
          {nameError && (
            <div id={`${id}-name-error`} className="invalid-feedback">
              {nameError}
            </div>
          )}
        </div>
        <div className="col-12 col-md-7">
          <label className="form-label small" htmlFor={`${id}-account`}>
            Account
          </label>
          <select
            id={`${id}-account`}
            className={`form-select${accountError ? ' is-invalid' : ''}`}
            aria-invalid={accountError ? true : undefined}
            aria-describedby={accountError ? `${id}-account-error` : undefined}
            {...register('accountId')}
          >
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name}
                {account.name !== account.id ? ` (${account.id})` : ''}
              </option>
            ))}
          </select>
          {accountError && (
            <div id={`${id}-account-error`} className="invalid-feedback">
              {accountError}
            </div>
          )}
        </div>
      </div>
      <div className="form-check mt-3">
        <input id={`${id}-test`} type="checkbox" className="form-check-input" {...register('isTest')} />
        <label className="form-check-label" htmlFor={`${id}-test`}>
          Test webhook
        </label>
        <div className="form-text mt-0">
          A test webhook answers with the normalized order (status draft) and never reaches the broker.
        </div>
      </div>
      {failure && (
        <FocusedAlert key={attempt} className="py-2 mt-3 mb-0">
          {failure}
        </FocusedAlert>
      )}
      <div className="d-flex gap-2 mt-3">
        <button type="submit" className="btn btn-primary btn-sm" disabled={formState.isSubmitting}>
          Create webhook
        </button>
        <button type="button" className="btn btn-link btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
