import { PASSCODE_LENGTH } from '@router/shared';
import type { ClipboardEvent } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/text-field.tsx';

/**
 * A 6-digit verification code (SPEC §2, §9). Pasted text is trimmed before the length limit
 * applies, so ' 123 456\n' copied from an authenticator still fits.
 */
export function PasscodeField({
  registration,
  error,
  onPasteValue,
  label = 'Verification code',
  hint,
  optional = false,
}: {
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  onPasteValue: (value: string) => void;
  label?: string;
  hint?: string;
  optional?: boolean;
}) {
  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    onPasteValue(event.clipboardData.getData('text').replace(/\s+/g, '').slice(0, PASSCODE_LENGTH));
  }
  return (
    <TextField
      label={label}
      hint={hint}
      registration={registration}
      error={error}
      onPaste={onPaste}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={PASSCODE_LENGTH}
      placeholder={optional ? undefined : '123456'}
      className="mb-3"
    />
  );
}
