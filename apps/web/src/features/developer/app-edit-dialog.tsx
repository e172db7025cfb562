import { zodResolver } from '@hookform/resolvers/zod';
import { type UserAppForm, userAppSchema } from '@router/shared';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { AppFields } from './app-fields.tsx';
import { AppFormModal } from './app-form-modal.tsx';
import { UserAppUpdateDocument } from './documents.ts';

interface EditedApp {
  key: string;
  name: string;
  description?: string | null;
  redirectUrl: string;
}

/**
 * 'Edit application': the name, description and callback URL (userAppUpdate), so a developer
 * whose OAuth requests are refused for their redirect URI can see and fix the one registered
 * without deleting the application (which ends every user's access). A refusal is the server's
 * message in red.
 */
export function AppEditDialog({
  app,
  onClose,
  onSaved,
}: {
  app: EditedApp | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { mutate } = useCall();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<UserAppForm, unknown, z.output<typeof userAppSchema>>({
    resolver: zodResolver(userAppSchema),
  });
  const { errors, isSubmitting } = formState;
  useEffect(() => {
    if (app) reset({ name: app.name, description: app.description ?? '', redirectUrl: app.redirectUrl });
  }, [app, reset]);

  const close = () => {
    if (isSubmitting) return;
    setFailure(null);
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    if (!app) return;
    setFailure(null);
    try {
      // An emptied description is sent as '' (the server clears it); undefined would keep it.
      const metadata = { ...values, description: values.description ?? '' };
      await mutate(UserAppUpdateDocument, { key: app.key, metadata });
      onSaved();
      onClose();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  return (
    <AppFormModal
      show={app !== null}
      title="Edit application"
      titleId="app-edit-title"
      busy={isSubmitting}
      onClose={close}
      onSubmit={onSubmit}
    >
      {failure && <FocusedAlert className="py-2">{failure}</FocusedAlert>}
      <AppFields register={register} errors={errors} />
    </AppFormModal>
  );
}
