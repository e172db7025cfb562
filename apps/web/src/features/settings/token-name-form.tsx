import { zodResolver } from '@hookform/resolvers/zod';
import { type UserTokenForm, userTokenFormSchema } from '@router/shared';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { cancelOnEscape } from '../../components/cancel-on-escape.ts';

/** The one-field form naming a token: creating one, or renaming it in its row (Cancel or Escape). */
export function TokenNameForm({
  initial = '',
  submitLabel,
  onSave,
  onCancel,
  label = 'Token name',
}: {
  initial?: string;
  submitLabel: string;
  onSave: (name: string) => Promise<string | null>;
  onCancel?: () => void;
  label?: string;
}) {
  const id = useId();
  const { register, handleSubmit, setError, formState, reset } = useForm<UserTokenForm>({
    resolver: zodResolver(userTokenFormSchema),
    defaultValues: { name: initial },
  });
  const error = formState.errors.name?.message;

  const onSubmit = handleSubmit(async ({ name }) => {
    const failure = await onSave(name);
    if (failure) setError('name', { message: failure });
    else if (!onCancel) reset({ name: '' });
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="d-flex flex-wrap align-items-start gap-2"
      onKeyDown={cancelOnEscape(onCancel)}
    >
      <div className="flex-grow-1" style={{ minWidth: '12rem', maxWidth: '24rem' }}>
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input
          id={id}
          className={`form-control${error ? ' is-invalid' : ''}`}
          placeholder={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          // biome-ignore lint/a11y/noAutofocus: a rename field appears because the user asked to rename
          autoFocus={onCancel !== undefined}
          {...register('name')}
        />
        {error && (
          <div id={`${id}-error`} className="invalid-feedback">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className="btn btn-link" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
