import { zodResolver } from '@hookform/resolvers/zod';
import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_TYPE,
  notificationEmailSchema,
  notificationUrlSchema,
} from '@router/shared';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { EventMatrix } from './event-matrix.tsx';
import {
  eventsOf,
  findByType,
  type NotificationChoice,
  type NotificationItem,
  parseMetadata,
  storedEvents,
} from './notification-model.ts';

const issue = (schema: z.ZodType, value: string): string | null => {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Required');
};

// SPEC §5: an email or URL is checked only when its type is toggled on; so are its events.
const schema = z
  .object({
    emailEnabled: z.boolean(),
    email: z.string(),
    emailEvents: z.array(z.string()),
    hookEnabled: z.boolean(),
    url: z.string(),
    hookEvents: z.array(z.string()),
  })
  .superRefine((values, ctx) => {
    const email = values.emailEnabled && issue(notificationEmailSchema, values.email);
    if (email) ctx.addIssue({ code: 'custom', path: ['email'], message: email });
    const url = values.hookEnabled && issue(notificationUrlSchema, values.url);
    if (url) ctx.addIssue({ code: 'custom', path: ['url'], message: url });
    for (const [on, path] of [
      [values.emailEnabled && values.emailEvents.length === 0, 'emailEvents'],
      [values.hookEnabled && values.hookEvents.length === 0, 'hookEvents'],
    ] as const) {
      if (on) ctx.addIssue({ code: 'custom', path: [path], message: NOTIFICATION_MESSAGES.eventsRequired });
    }
  });
export type NotificationFormValues = z.infer<typeof schema>;

/** The toggles, fields and events; `liveOnly` (a broker's demo) shows SPEC's message and cannot be saved. */
export function NotificationForm({
  id,
  notifications,
  userEmail,
  liveOnly,
  onEdit,
  onSave,
}: {
  id: string;
  notifications: readonly NotificationItem[];
  userEmail: string;
  liveOnly: boolean;
  /** Each change of a field or toggle. */
  onEdit?: () => void;
  onSave: (choices: NotificationChoice[]) => Promise<void>;
}) {
  const fieldId = useId();
  const email = findByType(notifications, NOTIFICATION_TYPE.EMAIL);
  const hook = findByType(notifications, NOTIFICATION_TYPE.HOOK);
  const [defaults] = useState<NotificationFormValues>(() => {
    const emailMeta = email ? parseMetadata(email.metadata) : {};
    const hookMeta = hook ? parseMetadata(hook.metadata) : {};
    return {
      emailEnabled: Boolean(email),
      email: emailMeta.email || userEmail,
      emailEvents: eventsOf(emailMeta),
      hookEnabled: Boolean(hook),
      url: hookMeta.url || '',
      hookEvents: eventsOf(hookMeta),
    };
  });
  const { register, handleSubmit, formState, watch } = useForm<NotificationFormValues>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
  });
  const [emailEnabled, hookEnabled] = watch(['emailEnabled', 'hookEnabled']);
  const errors = formState.errors;

  const submit = handleSubmit((values) =>
    onSave([
      {
        type: NOTIFICATION_TYPE.EMAIL,
        enabled: values.emailEnabled,
        metadata: { email: values.email.trim(), events: storedEvents(values.emailEvents) },
      },
      {
        type: NOTIFICATION_TYPE.HOOK,
        enabled: values.hookEnabled,
        metadata: { url: values.url.trim(), events: storedEvents(values.hookEvents) },
      },
    ]),
  );

  return (
    <form id={id} onSubmit={submit} onChange={onEdit} noValidate>
      {liveOnly && (
        <div className="alert alert-info" role="status">
          {NOTIFICATION_MESSAGES.liveOnly}
        </div>
      )}
      <fieldset disabled={liveOnly || formState.isSubmitting}>
        <legend className="visually-hidden">Notification channels</legend>
        <div className="form-check form-switch">
          <input
            id={`${fieldId}-email-on`}
            type="checkbox"
            className="form-check-input"
            {...register('emailEnabled')}
          />
          <label className="form-check-label" htmlFor={`${fieldId}-email-on`}>
            Email
          </label>
        </div>
        <div className="mb-3 ms-md-4">
          <label className="visually-hidden" htmlFor={`${fieldId}-email`}>
            Notification email
          </label>
          <input
            id={`${fieldId}-email`}
            type="email"
            className={`form-control${errors.email ? ' is-invalid' : ''}`}
            placeholder="you@example.com"
            disabled={!emailEnabled}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${fieldId}-email-error` : undefined}
            {...register('email')}
          />
          {errors.email && (
            <div id={`${fieldId}-email-error`} className="invalid-feedback">
              {errors.email.message}
            </div>
          )}
        </div>
        <div className="form-check form-switch">
          <input id={`${fieldId}-hook-on`} type="checkbox" className="form-check-input" {...register('hookEnabled')} />
          <label className="form-check-label" htmlFor={`${fieldId}-hook-on`}>
            Webhook
          </label>
        </div>
        <div className="mb-3 ms-md-4">
          <label className="visually-hidden" htmlFor={`${fieldId}-url`}>
            Notification webhook URL
          </label>
          <input
            id={`${fieldId}-url`}
            type="url"
            className={`form-control${errors.url ? ' is-invalid' : ''}`}
            placeholder="https://example.com/notify"
            disabled={!hookEnabled}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? `${fieldId}-url-error` : undefined}
            {...register('url')}
          />
          {errors.url && (
            <div id={`${fieldId}-url-error`} className="invalid-feedback">
              {errors.url.message}
            </div>
          )}
        </div>
        {(['Push', 'SMS'] as const).map((channel) => (
          <div key={channel} className="form-check form-switch">
            <input id={`${fieldId}-${channel}`} type="checkbox" className="form-check-input" disabled />
            <label className="form-check-label text-secondary" htmlFor={`${fieldId}-${channel}`}>
              {channel} <span className="small">(not available yet)</span>
            </label>
          </div>
        ))}
        {(emailEnabled || hookEnabled) && (
          <EventMatrix
            register={register}
            email={emailEnabled}
            hook={hookEnabled}
            errors={[errors.emailEvents?.message, errors.hookEvents?.message]}
          />
        )}
      </fieldset>
    </form>
  );
}
