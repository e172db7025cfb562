import type { UseFormRegisterReturn } from 'react-hook-form';
import { EmailField } from './email-field.tsx';
import { TextField } from './text-field.tsx';

type Field = 'firstName' | 'lastName' | 'email';

/** First and last name side by side, then the email (sign-up and the profile, SPEC §5). */
export function NameEmailFields({
  register,
  errors,
}: {
  /** The form's `register` (its values have the three fields). */
  register: (name: Field) => UseFormRegisterReturn;
  errors: Partial<Record<Field, { message?: string | undefined }>>;
}) {
  return (
    <>
      <div className="row g-sm-3">
        <TextField
          className="col-sm-6 mb-3 mb-sm-0"
          label="First name"
          autoComplete="given-name"
          registration={register('firstName')}
          error={errors.firstName?.message}
        />
        <TextField
          className="col-sm-6 mb-3"
          label="Last name"
          autoComplete="family-name"
          registration={register('lastName')}
          error={errors.lastName?.message}
        />
      </div>
      <EmailField registration={register('email')} error={errors.email?.message} />
    </>
  );
}
