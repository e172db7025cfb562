import { zodResolver } from '@hookform/resolvers/zod';
import { brokerCredentialSchema } from '@router/shared';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { TextField } from '../../components/text-field.tsx';
import { BranchField } from './branch-field.tsx';
import { credentialLabel, isMaskedCredential } from './credential-fields.ts';

type Values = Record<string, string>;

/**
 * One required field per credential name (SPEC §2, §5), in the provider's order; the one naming
 * the broker server (`branchField`) suggests server names.
 */
export function CredentialsForm({
  id,
  names,
  branchField,
  disabled,
  onSubmit,
}: {
  /** The form's id, for a submit button outside it (the dialog footer). */
  id: string;
  names: readonly string[];
  branchField?: string | undefined;
  disabled: boolean;
  onSubmit: (values: Values) => Promise<void>;
}) {
  const schema = useMemo(
    () => z.object(Object.fromEntries(names.map((name) => [name, brokerCredentialSchema]))),
    [names],
  );
  const { register, handleSubmit, formState, control } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: Object.fromEntries(names.map((name) => [name, ''])),
  });

  return (
    <form id={id} onSubmit={handleSubmit(onSubmit)} noValidate>
      <fieldset disabled={disabled}>
        {names.map((name, index) =>
          name === branchField ? (
            <BranchField
              key={name}
              name={name}
              label={credentialLabel(name)}
              control={control}
              registration={register(name)}
              error={formState.errors[name]?.message}
              autoFocus={index === 0}
            />
          ) : (
            <TextField
              key={name}
              label={credentialLabel(name)}
              registration={register(name)}
              error={formState.errors[name]?.message}
              type={isMaskedCredential(name) ? 'password' : 'text'}
              autoComplete={isMaskedCredential(name) ? 'new-password' : 'off'}
              spellCheck={false}
              autoFocus={index === 0}
            />
          ),
        )}
      </fieldset>
    </form>
  );
}
