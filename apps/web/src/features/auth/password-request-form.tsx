import { zodResolver } from '@hookform/resolvers/zod';
import { passwordResetRequestSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { useCall } from '../../lib/call.ts';
import { FormAlert, SubmitButton } from './auth-card.tsx';
import { PasswordResetRequestDocument } from './documents.ts';
import { AUTH_TEXT } from './messages.ts';

type Fields = z.input<typeof passwordResetRequestSchema>;

/** SPEC §2: the email to send a reset link to; the answer is the same whatever happened (§8). */
export function PasswordRequestForm() {
  const { mutate } = useCall();
  const [sent, setSent] = useState(false);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, z.output<typeof passwordResetRequestSchema>>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    // Errors are silent (SPEC §8): saying more would tell whether the email is registered.
    await mutate(PasswordResetRequestDocument, { email }).catch(() => undefined);
    setSent(true);
  });

  if (sent) return <FormAlert variant="success">{AUTH_TEXT.resetRequested}</FormAlert>;
  return (
    <form onSubmit={onSubmit} noValidate>
      <p className="text-secondary">
        Enter the email of your account and we will send you a link to set a new password.
      </p>
      <EmailField registration={register('email')} error={formState.errors.email?.message} />
      <SubmitButton busy={formState.isSubmitting}>Send reset link</SubmitButton>
    </form>
  );
}
