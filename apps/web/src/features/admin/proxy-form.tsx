import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_TEXT, adminProxySchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { useCall } from '../../lib/call.ts';
import { requestHeaders } from '../../lib/client.ts';
import { useSession, useSessionStore } from '../../lib/session.tsx';
import { AdminProxyEndDocument, AdminProxyStartDocument } from './documents.ts';
import { FormResult, failure, useAdminAction } from './form-result.tsx';

type Fields = z.input<typeof adminProxySchema>;

/**
 * SPEC §2 Admin, proxied user: Save checks the user on the server (which records 'proxy on'),
 * stores the lower-cased email (sent as X-User from then on) and reloads the user as them (when
 * the server does not answer that, it is not applied);
 * Reset records 'proxy off' (as the administrator) and clears it. Either button waits for the other: a double click records once.
 */
export function ProxyForm({ onDone }: { onDone: () => void }) {
  const session = useSession();
  const store = useSessionStore();
  const { mutate } = useCall();
  const { outcome, run, clear } = useAdminAction(onDone);
  const { register, handleSubmit, formState, reset } = useForm<Fields, unknown, z.output<typeof adminProxySchema>>({
    resolver: zodResolver(adminProxySchema),
    defaultValues: { email: session.proxiedUser ?? '' },
  });

  const onSave = handleSubmit(
    ({ email }) =>
      run(async () => {
        await mutate(AdminProxyStartDocument, { email });
        try {
          await store.proxy(email);
        } catch (error) {
          return { ok: false, text: `Not applied. ${failure(error).text}` };
        }
        // The store ends proxy mode when the user cannot be loaded as them.
        return store.getState().proxiedUser ? ADMIN_TEXT.applied : { ok: false, text: ADMIN_TEXT.notActivated };
      }),
    clear,
  );

  const [resetting, setResetting] = useState(false);
  const busy = formState.isSubmitting || resetting;

  const onReset = async () => {
    setResetting(true);
    await run(async () => {
      const email = store.getState().proxiedUser;
      if (email) {
        // Asked as the administrator (no X-User): a header whose email no longer names the user
        // (changed meanwhile) would be refused before the record. Best effort: proxy mode ends
        // whatever the answer.
        const { 'X-User': _proxied, ...headers } = requestHeaders();
        await mutate(AdminProxyEndDocument, { email }, { fetchOptions: { headers } }).catch((error: unknown) =>
          console.warn('Cannot record the end of proxy mode', error),
        );
      }
      await store.endProxy();
      reset({ email: '' });
      return null;
    });
    setResetting(false);
  };

  return (
    <form onSubmit={onSave} noValidate aria-label="Proxied user">
      <EmailField autoComplete="off" registration={register('email')} error={formState.errors.email?.message} />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Save
        </button>
        <button type="button" className="btn btn-outline-secondary" disabled={busy} onClick={() => void onReset()}>
          Reset
        </button>
        <FormResult outcome={outcome} />
      </div>
    </form>
  );
}
