import { zodResolver } from '@hookform/resolvers/zod';
import { type UserAppForm, userAppSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { TokenSecret } from '../settings/token-secret.tsx';
import { AppFields } from './app-fields.tsx';
import { AppFormModal } from './app-form-modal.tsx';
import { UserAppCreateDocument } from './documents.ts';

/**
 * SPEC §2 'New application': Name, Description (optional), Callback URL, Cancel and Save. After
 * saving it shows 'New secret token:' (the client secret, once) and resets the form; a failure
 * is the server's message in a red alert (SPEC §8).
 */
export function AppCreateDialog({
  show,
  onClose,
  onCreated,
}: {
  show: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { mutate } = useCall();
  const [created, setCreated] = useState<{ key: string; secret: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<UserAppForm, unknown, z.output<typeof userAppSchema>>({
    resolver: zodResolver(userAppSchema),
    defaultValues: { name: '', description: '', redirectUrl: '' },
  });
  const { errors, isSubmitting } = formState;

  const close = () => {
    // Closed mid-save, the client secret (shown only once) would arrive in a hidden dialog.
    if (isSubmitting) return;
    setCreated(null);
    setFailure(null);
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (app) => {
    setFailure(null);
    try {
      const { userAppCreate } = await mutate(UserAppCreateDocument, { ...app, description: app.description ?? null });
      setCreated(userAppCreate);
      reset();
      onCreated();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  return (
    <AppFormModal
      show={show}
      title="New application"
      titleId="app-create-title"
      busy={isSubmitting}
      onClose={close}
      onSubmit={onSubmit}
    >
      {failure && <FocusedAlert className="py-2">{failure}</FocusedAlert>}
      {created && (
        <>
          <p className="small mb-2">
            Client ID: <code className="user-select-all">{created.key}</code>
          </p>
          <TokenSecret
            secret={created.secret}
            onDone={close}
            hint="Copy it now: it is shown only once. Use it as the client secret of your application's OAuth 2.0 token requests."
          />
        </>
      )}
      <AppFields register={register} errors={errors} />
    </AppFormModal>
  );
}
