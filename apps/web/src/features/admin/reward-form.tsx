import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_TEXT, adminRewardSchema, DEFAULT_REWARD_CREDITS } from '@router/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { useCall } from '../../lib/call.ts';
import { AdminAccountRewardDocument } from './documents.ts';
import { CreditsField } from './fields.tsx';
import { FormResult, numberValue, useAdminAction } from './form-result.tsx';

type Fields = z.input<typeof adminRewardSchema>;

/** SPEC §2 Admin, reward signals: credits (default 25) added to a user's account. */
export function RewardForm({ onDone }: { onDone: () => void }) {
  const { mutate } = useCall();
  const { outcome, run } = useAdminAction(onDone);
  const defaults = { email: '', credits: DEFAULT_REWARD_CREDITS };
  const { register, handleSubmit, formState, reset } = useForm<Fields, unknown, z.output<typeof adminRewardSchema>>({
    resolver: zodResolver(adminRewardSchema),
    defaultValues: defaults,
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit((values) =>
    run(async () => {
      await mutate(AdminAccountRewardDocument, values);
      reset(defaults);
      return ADMIN_TEXT.rewarded;
    }),
  );

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
