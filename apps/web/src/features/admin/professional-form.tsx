import { zodResolver } from '@hookform/resolvers/zod';
import { adminProxySchema } from '@router/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { useCall } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import { AdminUserProfessionalDocument } from './documents.ts';
import { FormResult, useAdminAction } from './form-result.tsx';

/** The form names one user by email, as the proxy form does. */
const schema = adminProxySchema;
type Fields = z.input<typeof schema>;

/**
 * Beyond SPEC (issue 15): grants or removes professional status, which opens the developer
 * Applications section on a server without card payments. Removing it also ends the user's plans
 * that sell it with the period already paid (Stripe charges them no more; nothing is refunded), so
 * the form says so beside Remove. A change to the user signed in (or acted as) reloads the
 * session, so the screens it opens or closes (Applications, the upgrade card) follow at once.
 */
export const REMOVE_ENDS_PLAN =
  'Remove also cancels the user’s plans that sell professional status at the end of the period already paid (one whose renewal failed, at once) and closes their open payment pages for it: they are not charged again, and nothing is refunded. Grant does not renew them.';
export function ProfessionalForm({ onDone }: { onDone: () => void }) {
  const { mutate } = useCall();
  const session = useSession();
  const { outcome, run, clear } = useAdminAction(onDone);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });

  const submit = (isProfessional: boolean) =>
    handleSubmit(
      ({ email }) =>
        run(async () => {
          const { adminUserProfessional: changed } = await mutate(AdminUserProfessionalDocument, {
            email,
            isProfessional,
          });
          if (changed.email.toLowerCase() === session.user?.email.toLowerCase()) await session.reload();
          return isProfessional ? 'Professional status granted' : 'Professional status removed';
        }),
      clear,
    );

  return (
    <form onSubmit={submit(true)} noValidate aria-label="Professional status">
      <EmailField autoComplete="off" registration={register('email')} error={formState.errors.email?.message} />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          Grant
        </button>
        <button
          type="button"
          className="btn btn-outline-danger"
          disabled={formState.isSubmitting}
          onClick={() => void submit(false)()}
          aria-describedby="professional-remove-note"
        >
          Remove
        </button>
        <FormResult outcome={outcome} />
      </div>
      <p id="professional-remove-note" className="form-text mt-2 mb-0">
        {REMOVE_ENDS_PLAN}
      </p>
    </form>
  );
}
