import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, connector, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const LIVE = JSON.stringify([{ id: 'ACC-1', name: 'Main', dataType: 'margin', dataCurrency: 'USD', demo: false }]);
const DEMO_ACCOUNT = JSON.stringify([{ id: 'ACC-2', name: 'Practice', demo: true }]);

async function openDialog(account: string, connectors: unknown[], handlers: Record<string, FakeHandler> = {}) {
  const rendered = await renderRoute('/me/connector', {
    user: CUSTOMER,
    handlers: {
      Providers: providersHandler,
      Connectors: fixture(() => ({ data: { connectors } })),
      Notifications: fixture(() => ({ data: { notifications: [] } })),
      ...handlers,
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: `Notifications for ${account}` }));
  return { ...rendered, dialog: await screen.findByRole('dialog', { name: `Notifications · ${account}` }) };
}

const live = [connector({ key: 'c', providerName: 'alpaca', accounts: LIVE, isDemo: false })];

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
    expect(await within(dialog).findByText('Invalid email')).toBeTruthy();
    expect(within(dialog).getByText('Invalid URL')).toBeTruthy();
    expect(calls('NotificationCreate')).toHaveLength(0);
  });

  it('creates, updates and deletes per type, and stops at the first error', async () => {
    let failCreate = true;
    const { dialog, calls } = await openDialog('Main', live, {
      Notifications: fixture(() => ({
        data: {
          notifications: [
            {
              key: 'n1',
              type: 1,
              isEnabled: true,
              metadata: '{"url":"https://example.com/a"}',
              connectorKey: 'c',
              accountId: 'ACC-1',
            },
          ],
        },
      })),
      NotificationCreate: fixture(() =>
        failCreate ? graphQLError('Email not allowed') : { data: { notificationCreate: { key: 'n2' } } },
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
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('NotificationCreate').at(-1)?.variables).toEqual({
      connectorKey: 'c',
      accountId: 'ACC-1',
      type: 2,
      metadata: '{"email":"jo@example.com"}',
    });
    expect(calls('NotificationDelete')[0]?.variables).toEqual({ key: 'n1' });
  });

  it('refuses demo connectors and demo accounts', async () => {
    const message = 'This setting is currently available for live trading accounts only.';
    const demoConnector = await openDialog('Paper account', [connector({ key: 'p' })]);
    expect(within(demoConnector.dialog).getByText(message)).toBeTruthy();
    expect(within(demoConnector.dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(demoConnector.calls('Notifications')).toHaveLength(0);
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
});
