import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_TEXT, adminRewardSchema, DEFAULT_REWARD_CREDITS } from '@router/shared';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { useCall } from '../../lib/call.ts';
import { AdminAccountRewardDocument } from './documents.ts';
import { CreditsField } from './fields.tsx';
import { FormResult, numberValue, useAdminAction } from './form-result.tsx';

type Fields = z.input<typeof adminRewardSchema>;

/** 128 random bits, hex (crypto.getRandomValues works on plain http too, randomUUID does not). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * SPEC §2 Admin, reward signals: credits (default 25) added to a user's account. A submission
 * carries an idempotency key, kept while the same email and credits are sent again (a retry after
 * a lost answer grants once) and made anew after a success or for other values.
 */
export function RewardForm({ onDone }: { onDone: () => void }) {
  const { mutate } = useCall();
  const submission = useRef<{ key: string; email: string; credits: number } | null>(null);
  const { outcome, run, clear } = useAdminAction(onDone);
  const defaults = { email: '', credits: DEFAULT_REWARD_CREDITS };
  const { register, handleSubmit, formState, reset } = useForm<Fields, unknown, z.output<typeof adminRewardSchema>>({
    resolver: zodResolver(adminRewardSchema),
    defaultValues: defaults,
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit((values) => {
    const { email, credits } = values;
    const same = submission.current?.email === email && submission.current.credits === credits;
    if (!same || !submission.current) submission.current = { key: newIdempotencyKey(), email, credits };
    const idempotencyKey = submission.current.key;
    return run(async () => {
      await mutate(AdminAccountRewardDocument, { email, credits, idempotencyKey });
      submission.current = null;
      reset(defaults);
      return ADMIN_TEXT.rewarded;
    });
  }, clear);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reward signals">
      <div className="row g-sm-3">
        <EmailField
          className="col-sm-8 mb-3"
          autoComplete="off"
          registration={register('email')}
          error={errors.email?.message}
        />
        <CreditsField
          className="col-sm-4 mb-3"
          registration={register('credits', { setValueAs: numberValue })}
          error={errors.credits?.message}
        />
      </div>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          Add
        </button>
        <FormResult outcome={outcome} />
      </div>
    </form>
  );
}
