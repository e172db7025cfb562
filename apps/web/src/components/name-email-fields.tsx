import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './text-field.tsx';

/** First and last name side by side, then the email (sign-up and the profile, SPEC §5). */
export function NameEmailFields({
  firstName,
  lastName,
  email,
  errors,
}: {
  firstName: UseFormRegisterReturn;
  lastName: UseFormRegisterReturn;
  email: UseFormRegisterReturn;
  errors: { firstName?: string | undefined; lastName?: string | undefined; email?: string | undefined };
}) {
  return (
    <>
      <div className="row g-sm-3">
        <TextField
          className="col-sm-6 mb-3 mb-sm-0"
          label="First name"
          autoComplete="given-name"
          registration={firstName}
          error={errors.firstName}
        />
        <TextField
          className="col-sm-6 mb-3"
          label="Last name"
          autoComplete="family-name"
          registration={lastName}
          error={errors.lastName}
        />
      </div>
      <TextField
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        registration={email}
        error={errors.email}
      />
    </>
  );
}
