import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_TEXT, referrerCodeOf, referrerDeleteSchema } from '@router/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TextField } from '../../components/text-field.tsx';
import { useCall } from '../../lib/call.ts';
import { AdminReferrerDeleteDocument } from './documents.ts';
import { FormResult, useAdminAction } from './form-result.tsx';

type Fields = z.input<typeof referrerDeleteSchema>;

/**
 * SPEC §2 Admin: deletes a campaign by its link or the link's suffix (its Check button is
 * disabled); `onDeleted` is told the code deleted.
 */
export function ReferrerDeleteForm({ onDone, onDeleted }: { onDone: () => void; onDeleted: (code: string) => void }) {
  const { mutate } = useCall();
  const { outcome, run, clear } = useAdminAction(onDone);
  const { register, handleSubmit, formState, reset } = useForm<Fields, unknown, z.output<typeof referrerDeleteSchema>>({
    resolver: zodResolver(referrerDeleteSchema),
    defaultValues: { referrerCodeOrUrl: '' },
  });

  const onSubmit = handleSubmit(
    (values) =>
      run(async () => {
        await mutate(AdminReferrerDeleteDocument, values);
        onDeleted(referrerCodeOf(values.referrerCodeOrUrl));
        reset({ referrerCodeOrUrl: '' });
        return ADMIN_TEXT.referrerDeleted;
      }),
    clear,
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Delete a referrer link">
      <TextField
        label="Link or suffix"
        autoComplete="off"
        registration={register('referrerCodeOrUrl')}
        error={formState.errors.referrerCodeOrUrl?.message}
      />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="button" className="btn btn-outline-secondary" disabled>
          Check
        </button>
        <button type="submit" className="btn btn-danger" disabled={formState.isSubmitting}>
          Delete
        </button>
        <FormResult outcome={outcome} />
      </div>
    </form>
  );
}
