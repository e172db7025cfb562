import type { UserAppForm } from '@router/shared';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { TextField } from '../../components/text-field.tsx';

/** An application's fields (SPEC §2 'New application'), for creating and for editing it. */
export function AppFields({
  register,
  errors,
}: {
  register: UseFormRegister<UserAppForm>;
  errors: FieldErrors<UserAppForm>;
}) {
  return (
    <>
      <TextField label="Name" registration={register('name')} error={errors.name?.message} />
      <TextField
        label="Description (optional)"
        registration={register('description')}
        error={errors.description?.message}
      />
      <TextField
        label="Callback URL"
        type="url"
        placeholder="https://example.com/oauth/callback"
        registration={register('redirectUrl')}
        error={errors.redirectUrl?.message}
        hint="Where users return after they grant access; https (http only for localhost)."
      />
    </>
  );
}
