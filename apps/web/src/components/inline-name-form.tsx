import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { type ZodType, z } from 'zod';
import { cancelOnEscape } from './cancel-on-escape.ts';

/**
 * A one-field rename form shown in place of a name: Save or Cancel (Escape). `onSave` answers
 * an error to show under the field, or null when saved.
 */
export function InlineNameForm({
  initial,
  label,
  schema,
  onSave,
  onCancel,
}: {
  initial: string;
  label: string;
  schema: ZodType<string, string>;
  onSave: (name: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const id = useId();
  const resolver = useMemo(() => zodResolver(z.object({ name: schema })), [schema]);
  const { register, handleSubmit, setError, formState } = useForm<{ name: string }>({
    resolver,
    defaultValues: { name: initial },
  });
  const error = formState.errors.name?.message;

  const onSubmit = handleSubmit(async ({ name }) => {
    const failure = await onSave(name);
    if (failure) setError('name', { message: failure });
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="d-flex flex-wrap align-items-start gap-2"
      onKeyDown={cancelOnEscape(onCancel)}
    >
      <div className="flex-grow-1" style={{ minWidth: '10rem', maxWidth: '22rem' }}>
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input
          id={id}
          className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
          autoFocus
          // While the save is in flight, a name typed would be dropped when the form closes on success.
          readOnly={formState.isSubmitting}
          {...register('name')}
        />
        {error && (
          <div id={`${id}-error`} className="invalid-feedback">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="btn btn-sm btn-primary" disabled={formState.isSubmitting}>
        Save
      </button>
      <button type="button" className="btn btn-sm btn-link" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
