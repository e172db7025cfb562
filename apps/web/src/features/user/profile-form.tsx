import { zodResolver } from '@hookform/resolvers/zod';
import { userUpdateSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type FormOutcome, FormResult } from '../../components/form-outcome.tsx';
import { NameEmailFields } from '../../components/name-email-fields.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { type SessionUser, useSession } from '../../lib/session.tsx';
import { UserUpdateDocument } from './documents.ts';

type Fields = z.input<typeof userUpdateSchema>;

const FIELDS = ['email', 'firstName', 'lastName'] as const;

/**
 * Settings' general block: name and email (a new email applies once its link is opened; the
 * server's pending one is told under the field, so it still shows after a reload).
 */
export function ProfileForm({ user }: { user: SessionUser }) {
  const { mutate } = useCall();
  const session = useSession();
  const [result, setResult] = useState<FormOutcome | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<
    Fields,
    unknown,
    z.output<typeof userUpdateSchema>
  >({
    resolver: zodResolver(userUpdateSchema),
    defaultValues: { email: user.email, firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const { errors, isSubmitting, isDirty } = formState;

  const onSubmit = handleSubmit(
    async ({ email, firstName, lastName }) => {
      setResult(null);
      const emailChanged = email !== undefined && email.toLowerCase() !== user.email.toLowerCase();
      try {
        const { userUpdate } = await mutate(UserUpdateDocument, {
          firstName: firstName ?? '',
          lastName: lastName ?? '',
          ...(emailChanged ? { email } : {}),
        });
        reset({ email: userUpdate.email, firstName: userUpdate.firstName ?? '', lastName: userUpdate.lastName ?? '' });
        await session.reload();
        setResult({
          ok: true,
          text: emailChanged ? `Saved. Open the link we sent to ${email} to change your email.` : 'Saved',
        });
      } catch (error) {
        // A refusal naming a field (an email already taken) is told under that field, as the password form does.
        const field = (error as { extensions?: { field?: unknown } } | null)?.extensions?.field;
        const known = FIELDS.find((name) => name === field);
        if (known) setError(known, { message: errorMessage(error) }, { shouldFocus: true });
        else setResult({ ok: false, text: errorMessage(error) });
      }
    },
    // Refused by its own fields: the last outcome spoke of other values.
    () => setResult(null),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="General">
      <NameEmailFields register={register} errors={errors} />
      {user.pendingEmail && (
        <p className="form-text mb-3" role="status">
          A change of your email to <strong>{user.pendingEmail}</strong> waits for confirmation: open the link we sent
          to that address.
        </p>
      )}
      <div className="d-flex align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || !isDirty}>
          Save
        </button>
        <FormResult outcome={result} />
      </div>
    </form>
  );
}
