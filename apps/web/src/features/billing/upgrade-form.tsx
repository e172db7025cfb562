import { zodResolver } from '@hookform/resolvers/zod';
import {
  BUSINESS_FIELDS,
  LEGAL_QUESTIONS,
  type LegalQuestion,
  type ProfessionalApplication,
  professionalApplicationSchema,
} from '@router/shared';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { SubmitButton } from '../auth/auth-card.tsx';
import { AccountUpgradeDocument } from './documents.ts';

type Fields = Omit<ProfessionalApplication, 'legal'> & { legal: Record<LegalQuestion, string> };
const resolver = zodResolver(professionalApplicationSchema) as unknown as Resolver<
  Fields,
  unknown,
  ProfessionalApplication
>;

const QUESTIONS = Object.entries(LEGAL_QUESTIONS) as Array<[LegalQuestion, string]>;

/** SPEC §5: the application's answers, each 'Required'; success goes on to the payment (SPEC §2). */
export function UpgradeForm() {
  const { mutate } = useCall();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, ProfessionalApplication>({
    resolver,
    defaultValues: {
      ...Object.fromEntries(BUSINESS_FIELDS.map((f) => [f.name, ''])),
      legal: Object.fromEntries(QUESTIONS.map(([key]) => [key, ''])) as Record<LegalQuestion, string>,
    } as Fields,
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = handleSubmit(async (answers) => {
    setFailure(null);
    try {
      const { accountUpgrade } = await mutate(AccountUpgradeDocument, { metadata: answers });
      if (accountUpgrade) await navigate('/me/account/upgrade/checkout', { state: { applied: true } });
      else setFailure('Error');
    } catch (error) {
      setFailure(errorMessage(error, 'Error'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      {failure && <FocusedAlert>{failure}</FocusedAlert>}
      {BUSINESS_FIELDS.map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          registration={register(field.name)}
          error={errors[field.name]?.message}
        />
      ))}
      <fieldset className="mb-3">
        <legend className="h6 mt-4">Questions</legend>
        {QUESTIONS.map(([key, question]) => {
          const error = errors.legal?.[key]?.message;
          return (
            <div
              key={key}
              className="mb-3"
              role="radiogroup"
              aria-labelledby={`legal-${key}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `legal-${key}-error` : undefined}
            >
              <p id={`legal-${key}`} className="mb-1">
                {key}. {question}
              </p>
              {['yes', 'no'].map((value) => (
                <div key={value} className="form-check form-check-inline">
                  <input
                    id={`legal-${key}-${value}`}
                    type="radio"
                    value={value}
                    className={`form-check-input${error ? ' is-invalid' : ''}`}
                    {...register(`legal.${key}`)}
                  />
                  <label className="form-check-label" htmlFor={`legal-${key}-${value}`}>
                    {value === 'yes' ? 'Yes' : 'No'}
                  </label>
                </div>
              ))}
              {error && (
                <div id={`legal-${key}-error`} className="invalid-feedback d-block">
                  {error}
                </div>
              )}
            </div>
          );
        })}
      </fieldset>
      <SubmitButton busy={isSubmitting}>Apply and continue to payment</SubmitButton>
    </form>
  );
}
