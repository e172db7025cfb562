import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CUSTOMER, connector, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, type GraphQLPayload, graphQLError } from '../../test/fake-server.ts';
import { labelsMissingText } from '../../test/names.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { deferred } from '../../test/render-with-client.tsx';

const LIVE = JSON.stringify([{ id: 'ACC-1', name: 'Main', dataType: 'margin', dataCurrency: 'USD', demo: false }]);
const DEMO_ACCOUNT = JSON.stringify([{ id: 'ACC-2', name: 'Practice', demo: true }]);

async function openDialog(account: string, connectors: unknown[], handlers: Record<string, FakeHandler> = {}) {
  const rendered = await renderRoute('/me/connector', {
    user: CUSTOMER,
    handlers: {
      Providers: providersHandler,
      Connectors: fixture(() => ({ data: { connectors } })),
      Notifications: fixture(() => ({ data: { notifications: [] } })),
      NotificationDeliveries: fixture(() => ({ data: { notificationDeliveries: [] } })),
      ...handlers,
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: `Notifications for ${account}` }));
  return { ...rendered, dialog: await screen.findByRole('dialog', { name: `Notifications · ${account}` }) };
}

const live = [connector({ key: 'c', providerName: 'alpaca', accounts: LIVE, isDemo: false })];
const HOOK_SETTING = {
  key: 'n1',
  type: 1,
  isEnabled: true,
  metadata: '{"url":"https://example.com/a"}',
  connectorKey: 'c',
  accountId: 'ACC-1',
  disabledReason: null,
};
const delivery = (id: string, status: string, attempts: number, extra: Record<string, unknown> = {}) => ({
  id,
  notificationKey: 'n1',
  type: 1,
  eventId: `msg_${id}`,
  event: 'order.rejected',
  status,
  attempts,
  responseCode: null,
  error: null,
  inDigest: false,
  createdAt: Date.UTC(2025, 2, 14, 9, 30),
  lastAttemptAt: Date.UTC(2025, 2, 14, 9, 31),
  nextAttemptAt: null,
  ...extra,
});

describe('notifications dialog (SPEC §2, §4, §5)', () => {
  it('prefills the email with the user, validates, and shows push and SMS disabled', async () => {
    const { dialog, calls } = await openDialog('Main', live);
    const email = (await within(dialog).findByLabelText('Notification email')) as HTMLInputElement;
    expect(email.value).toBe('jo@example.com');
    expect(within(dialog).getByLabelText(/Push/)).toHaveProperty('disabled', true);
    expect(within(dialog).getByLabelText(/SMS/)).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByLabelText('Email'));
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.click(within(dialog).getByLabelText('Webhook'));
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), { target: { value: 'ftp://x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const emailError = await within(dialog).findByText('Invalid email');
    const urlError = within(dialog).getByText('Invalid URL');
    expect(calls('NotificationCreate')).toHaveLength(0);
    // Each message is the description of its field, as a screen reader announces it.
    const url = within(dialog).getByLabelText('Notification webhook URL');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(emailError.id);
    expect(url.getAttribute('aria-describedby')?.split(' ')).toContain(urlError.id);
  });

  it('creates, updates and deletes per type, and stops at the first error', async () => {
    let failCreate = true;
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => ({ data: { notifications: [HOOK_SETTING] } })),
      NotificationCreate: fixture(() =>
        failCreate ? graphQLError('Email not allowed') : { data: { notificationCreate: { key: 'n2', secret: null } } },
      ),
      NotificationDelete: fixture(() => ({ data: { notificationDelete: true } })),
    });
    const hookToggle = (await within(dialog).findByLabelText('Webhook')) as HTMLInputElement;
    expect(hookToggle.checked).toBe(true);
    fireEvent.click(within(dialog).getByLabelText('Email'));
    fireEvent.click(hookToggle);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Email not allowed');
    expect(calls('NotificationDelete')).toHaveLength(0);

    failCreate = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Saved.')).toBeTruthy();
    expect(calls('NotificationCreate').at(-1)?.variables).toEqual({
      connectorKey: 'c',
      accountId: 'ACC-1',
      type: 2,
      metadata: '{"email":"jo@example.com"}',
    });
    expect(calls('NotificationDelete')[0]?.variables).toEqual({ key: 'n1' });
  });

  it('picks events per channel (all by default), and needs at least one', async () => {
    const { dialog, calls } = await openDialog('Main', live, {
      NotificationCreate: fixture(() => ({ data: { notificationCreate: { key: 'n2', secret: null } } })),
    });
    fireEvent.click(await within(dialog).findByLabelText('Email'));
    const events = within(dialog).getAllByRole('checkbox', { name: / by email$/ }) as HTMLInputElement[];
    expect(events).toHaveLength(8);
    expect(events.every((box) => box.checked)).toBe(true);
    for (const box of events) fireEvent.click(box);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Choose at least one event')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Order rejected or failed by email'));
    fireEvent.click(within(dialog).getByLabelText('Credits exhausted by email'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('NotificationCreate')).toHaveLength(1));
    expect(JSON.parse(String(calls('NotificationCreate')[0]?.variables.metadata))).toEqual({
      email: 'jo@example.com',
      events: ['order.rejected', 'credits.exhausted'],
    });
  });

  it('shows a new webhook secret once, sends tests, lists deliveries, re-sends and rotates', async () => {
    let settings: unknown[] = [];
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => ({ data: { notifications: settings } })),
      NotificationCreate: fixture(() => {
        settings = [HOOK_SETTING];
        return { data: { notificationCreate: { key: 'n1', secret: 'whsec_first' } } };
      }),
      NotificationDeliveries: fixture(() => ({
        data: {
          notificationDeliveries: [
            delivery('2', 'pending', 1, { responseCode: 500, error: 'HTTP 500' }),
            delivery('1', 'delivered', 1, { responseCode: 200, event: 'notification.test' }),
          ],
        },
      })),
      NotificationTest: fixture(() => ({ data: { notificationTest: delivery('3', 'pending', 0) } })),
      NotificationDeliveryResend: fixture(() => ({
        data: { notificationDeliveryResend: delivery('2', 'pending', 1) },
      })),
      NotificationSecretRotate: fixture(() => ({
        data: { notificationSecretRotate: { key: 'n1', secret: 'whsec_second' } },
      })),
    });
    fireEvent.click(await within(dialog).findByLabelText('Webhook'));
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), {
      target: { value: 'https://example.com/a' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const secret = (await within(dialog).findByLabelText('Webhook signing secret')) as HTMLInputElement;
    expect(secret.value).toBe('whsec_first');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(within(dialog).queryByLabelText('Webhook signing secret')).toBeNull();

    const rows = await within(dialog).findAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/WebhookOrder rejected or failedRetrying1500 HTTP 500Re-send/),
        expect.stringMatching(/WebhookTest notificationDelivered1200Re-send/),
      ]),
    );
    // Every button's name holds its visible words (WCAG 2.5.3): 'Send test', 'Re-send'.
    expect(labelsMissingText(dialog)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test webhook' }));
    await waitFor(() => expect(calls('NotificationTest')[0]?.variables).toEqual({ key: 'n1' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: /^Re-send Order rejected or failed of / }));
    await waitFor(() => expect(calls('NotificationDeliveryResend')[0]?.variables).toEqual({ id: '2' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Rotate secret' }));
    expect(((await within(dialog).findByLabelText('Webhook signing secret')) as HTMLInputElement).value).toBe(
      'whsec_second',
    );
  });

  it('keeps the delivery log when reloading it fails for a moment', async () => {
    let logDown = false;
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => ({ data: { notifications: [HOOK_SETTING] } })),
      NotificationDeliveries: fixture(() =>
        logDown
          ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
          : { data: { notificationDeliveries: [delivery('1', 'delivered', 1, { responseCode: 200 })] } },
      ),
      NotificationTest: fixture(() => {
        logDown = true;
        return { data: { notificationTest: delivery('3', 'pending', 0) } };
      }),
    });
    expect(await within(dialog).findByText('Delivered')).toBeTruthy();
    const before = calls('NotificationDeliveries').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test webhook' }));
    await waitFor(() => expect(calls('NotificationDeliveries').length).toBeGreaterThan(before));
    await within(dialog).findByText('Test notification queued: see the deliveries below.');
    await act(async () => {});
    await act(async () => {});
    expect(within(dialog).getByText('Delivered')).toBeTruthy();
    expect(within(dialog).queryByText('Cannot load the deliveries.')).toBeNull();
  });

  it('asks the delivery log again fast only while a delivery is due, not through a retry hours away', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let dueAt = Date.now() + 3_600_000;
      const { dialog, calls } = await openDialog('Main', live, {
        Notifications: fixture(() => ({ data: { notifications: [HOOK_SETTING] } })),
        NotificationDeliveries: fixture(() => ({
          data: { notificationDeliveries: [delivery('1', 'pending', 3, { nextAttemptAt: dueAt })] },
        })),
      });
      expect(await within(dialog).findByText('Retrying')).toBeTruthy();
      const asked = () => calls('NotificationDeliveries').length;
      const before = asked();
      // The retry is an hour away: the log is asked at most once a minute meanwhile.
      await act(() => vi.advanceTimersByTimeAsync(50_000));
      expect(asked()).toBe(before);
      await act(() => vi.advanceTimersByTimeAsync(15_000));
      expect(asked()).toBe(before + 1);
      // Once a retry is due (by the next read), every two seconds until it is done.
      dueAt = Date.now() + 60_000;
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      const due = asked();
      for (let i = 0; i < 3; i++) await act(() => vi.advanceTimersByTimeAsync(2_100));
      expect(asked() - due).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the delivery log cannot be loaded, with a retry, instead of waiting forever', async () => {
    let logDown = true;
    const { dialog } = await openDialog('Main', live, {
      Notifications: fixture(() => ({ data: { notifications: [HOOK_SETTING] } })),
      NotificationDeliveries: fixture(() =>
        logDown
          ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
          : { data: { notificationDeliveries: [delivery('1', 'delivered', 1, { responseCode: 200 })] } },
      ),
    });
    const alert = await within(dialog).findByText('Cannot load the deliveries.');
    logDown = false;
    fireEvent.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Delivered')).toBeTruthy();
  });

  const LIVE_ONLY = 'This setting is currently available for live trading accounts only.';

  it('accepts paper accounts (demo accounts of the built-in simulator)', async () => {
    const paper = await openDialog('Paper account', [connector({ key: 'p' })]);
    await within(paper.dialog).findByLabelText('Notification email');
    expect(within(paper.dialog).queryByText(LIVE_ONLY)).toBeNull();
    expect(within(paper.dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });

  it('shows and deletes the settings of an account a reconnect no longer brought', async () => {
    const gone = { ...HOOK_SETTING, key: 'n9', accountId: 'OLD-7' };
    const { dialog, calls } = await openDialog('OLD-7', live, {
      ConnectorNotifications: fixture(() => ({
        data: {
          notifications: [
            { key: 'n1', accountId: 'ACC-1' },
            { key: gone.key, accountId: gone.accountId },
          ],
        },
      })),
      Notifications: fixture(() => ({ data: { notifications: [gone] } })),
      NotificationDelete: fixture(() => ({ data: { notificationDelete: true } })),
    });
    expect(screen.getByRole('heading', { name: 'Notifications of accounts no longer connected' })).toBeTruthy();
    expect(calls('Notifications').at(-1)?.variables).toEqual({ connectorKey: 'c', accountId: 'OLD-7' });
    const hookToggle = (await within(dialog).findByLabelText('Webhook')) as HTMLInputElement;
    expect(hookToggle.checked).toBe(true);
    fireEvent.click(hookToggle);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('NotificationDelete')[0]?.variables).toEqual({ key: 'n9' }));
  });

  it("refuses a broker's demo connectors", async () => {
    const message = LIVE_ONLY;
    const demo = await openDialog('Paper account', [connector({ key: 'd', providerName: 'alpaca' })]);
    expect(within(demo.dialog).getByText(message)).toBeTruthy();
    expect(within(demo.dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(demo.calls('Notifications')).toHaveLength(0);
  });

  it('refuses a demo account of a live connector', async () => {
    const { dialog } = await openDialog('Practice', [
      connector({ key: 'c', providerName: 'alpaca', accounts: DEMO_ACCOUNT, isDemo: false }),
    ]);
    expect(
      within(dialog).getByText('This setting is currently available for live trading accounts only.'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('keeps what was typed when a save stops halfway (the email saved, the webhook refused)', async () => {
    let settings: unknown[] = [];
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => ({ data: { notifications: settings } })),
      NotificationTest: fixture(() => ({ data: { notificationTest: { id: 'd1', status: 'pending' } } })),
      NotificationCreate: fixture((request) => {
        if (request.variables.type === 1) {
          if (String(request.variables.metadata).includes('192.168')) {
            return graphQLError('Private network addresses are not allowed');
          }
          settings = [...settings, { ...HOOK_SETTING, key: 'n3', metadata: request.variables.metadata }];
          return { data: { notificationCreate: { key: 'n3', secret: null } } };
        }
        settings = [{ ...HOOK_SETTING, key: 'n2', type: 2, metadata: '{"email":"jo@example.com"}' }];
        return { data: { notificationCreate: { key: 'n2', secret: null } } };
      }),
    });
    fireEvent.click(await within(dialog).findByLabelText('Email'));
    fireEvent.click(within(dialog).getByLabelText('Webhook'));
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), {
      target: { value: 'http://192.168.1.5/notify' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Private network addresses are not allowed');
    // The saved email shows in the saved settings (the list was asked again), and can be tested.
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send test email' }));
    expect(await within(dialog).findByText(/Test notification queued/)).toBeTruthy();
    await waitFor(() => expect(calls('Notifications').length).toBeGreaterThanOrEqual(3));
    expect((within(dialog).getByLabelText('Webhook') as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText('Notification webhook URL') as HTMLInputElement).value).toBe(
      'http://192.168.1.5/notify',
    );
    // Corrected and saved again: only the webhook is created, and the form shows what is saved.
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), {
      target: { value: 'https://example.com/notify' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Saved.')).toBeTruthy();
    await within(dialog).findByRole('button', { name: 'Send test webhook' });
    expect(calls('NotificationCreate').map((call) => call.variables.type)).toEqual([2, 1, 1]);
    expect((within(dialog).getByLabelText('Notification webhook URL') as HTMLInputElement).value).toBe(
      'https://example.com/notify',
    );
  });
  it('keeps what was typed while the settings were reloaded after a save', async () => {
    let settings: unknown[] = [HOOK_SETTING];
    let reload: ReturnType<typeof deferred<GraphQLPayload>> | null = null;
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => reload?.promise ?? { data: { notifications: settings } }),
      NotificationUpdate: fixture((request) => {
        settings = [{ ...HOOK_SETTING, metadata: request.variables.metadata }];
        reload = deferred<GraphQLPayload>();
        return { data: { notificationUpdate: { key: 'n1' } } };
      }),
    });
    const url = (await within(dialog).findByLabelText('Notification webhook URL')) as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'https://example.com/b' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Saved.')).toBeTruthy();
    await waitFor(() => expect(calls('Notifications')).toHaveLength(2));
    // Typed while the reload runs: the saved settings that then arrive do not start the form again.
    fireEvent.change(url, { target: { value: 'https://example.com/c' } });
    act(() => reload?.resolve({ data: { notifications: settings } }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false));
    await act(() => reload?.promise);
    expect((within(dialog).getByLabelText('Notification webhook URL') as HTMLInputElement).value).toBe(
      'https://example.com/c',
    );
    // Saved again, the form starts from what was saved.
    reload = null;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('NotificationUpdate')).toHaveLength(2));
    expect(calls('NotificationUpdate')[1]?.variables.metadata).toBe('{"url":"https://example.com/c"}');
    await waitFor(() => expect(calls('Notifications')).toHaveLength(3));
    act(() => reload?.resolve({ data: { notifications: settings } }));
    await waitFor(() =>
      expect((within(dialog).getByLabelText('Notification webhook URL') as HTMLInputElement).value).toBe(
        'https://example.com/c',
      ),
    );
  });
  it('keeps what was typed when the settings cannot be reloaded after a save that stopped halfway', async () => {
    let settings: unknown[] = [];
    let loadsFail = false;
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() =>
        loadsFail ? graphQLError('Database unavailable', 'INTERNAL') : { data: { notifications: settings } },
      ),
      NotificationCreate: fixture((request) => {
        if (request.variables.type === 1) {
          if (String(request.variables.metadata).includes('192.168')) {
            loadsFail = true;
            return graphQLError('Private network addresses are not allowed');
          }
          settings = [...settings, { ...HOOK_SETTING, key: 'n3', metadata: request.variables.metadata }];
          return { data: { notificationCreate: { key: 'n3', secret: null } } };
        }
        settings = [{ ...HOOK_SETTING, key: 'n2', type: 2, metadata: '{"email":"jo@example.com"}' }];
        return { data: { notificationCreate: { key: 'n2', secret: null } } };
      }),
    });
    fireEvent.click(await within(dialog).findByLabelText('Email'));
    fireEvent.click(within(dialog).getByLabelText('Webhook'));
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), {
      target: { value: 'http://192.168.1.5/notify' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Private network addresses are not allowed')).toBeTruthy();
    expect(await within(dialog).findByText(/Cannot load the notification settings/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Notification webhook URL') as HTMLInputElement).value).toBe(
      'http://192.168.1.5/notify',
    );
    // Saving against settings that could not be read would create the saved email again.
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    loadsFail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await within(dialog).findByRole('button', { name: 'Send test email' });
    fireEvent.change(within(dialog).getByLabelText('Notification webhook URL'), {
      target: { value: 'https://example.com/notify' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Saved.')).toBeTruthy();
    expect(calls('NotificationCreate').map((call) => call.variables.type)).toEqual([2, 1, 1]);
  });
});
