import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/text-field.tsx';
import { PasswordStrength } from './password-strength.tsx';

/** Password with its strength bar, and its confirmation (sign-up, reset and change, SPEC §5). */
export function NewPasswordFields({
  password,
  password2,
  score,
  errors,
  labels = { password: 'Password', password2: 'Password confirmation' },
}: {
  password: UseFormRegisterReturn;
  password2: UseFormRegisterReturn;
  score: number | null;
  errors: { password?: string | undefined; password2?: string | undefined };
  labels?: { password: string; password2: string };
}) {
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        registration={password}
        error={errors.password}
        hint="The bar turns green once the password is hard enough to guess: 12 or more random characters, or several unrelated words."
      >
        <PasswordStrength score={score} />
      </TextField>
      <TextField
        label={labels.password2}
        type="password"
        autoComplete="new-password"
        registration={password2}
        error={errors.password2}
      />
    </>
  );
}
