import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, connector, hook, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

function render(handlers: Record<string, FakeHandler> = {}) {
  return renderRoute('/me/connector', {
    user: CUSTOMER,
    handlers: {
      Providers: providersHandler,
      Connectors: fixture(() => ({ data: { connectors: [connector({ key: 'p' })] } })),
      Hooks: fixture(() => ({ data: { hooks: [hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook' })] } })),
      ...handlers,
    },
  });
}

const card = () => screen.findByRole('article', { name: 'Paper Trading' });

describe('webhooks (SPEC §2)', () => {
  it("says why a card's webhooks did not load, and loads them again on 'Try again'", async () => {
    let down = true;
    await render({
      Hooks: fixture(() =>
        down
          ? graphQLError('Service temporarily unavailable, please retry', 'SERVICE_UNAVAILABLE')
          : { data: { hooks: [hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook' })] } },
      ),
    });
    const failed = await within(await card()).findByText(/Cannot load the webhooks/);
    expect(failed.textContent).toContain('The server is unavailable right now and nothing was changed.');
    down = false;
    fireEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await within(await card()).findByRole('button', { name: 'Rename webhook Main hook' })).toBeTruthy();
    expect(within(await card()).queryByText(/Cannot load the webhooks/)).toBeNull();
  });

  it("says why the brokers did not load and when to try again, and loads them on 'Try again'", async () => {
    let down = true;
    await render({
      Connectors: fixture(() =>
        down
          ? {
              data: null,
              errors: [
                {
                  message: 'Service temporarily unavailable, please retry',
                  extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 },
                },
              ],
            }
          : { data: { connectors: [connector({ key: 'p' })] } },
      ),
    });
    const failed = await screen.findByText(/Cannot load your brokers/);
    expect(failed.textContent).toBe(
      'Cannot load your brokers: The server is unavailable right now and nothing was changed. Please try again in 5 seconds.',
    );
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await card()).toBeTruthy();
  });

  it('creates a hook with name, account and test flag', async () => {
    const { calls } = await render({
      HookCreate: fixture(({ variables }) => ({
        data: { hookCreate: hook({ key: 'h2', accountId: String(variables.accountId), isTest: true }) },
      })),
    });
    fireEvent.click(within(await card()).getByRole('button', { name: 'New webhook for Paper account' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    expect(within(form).getByText(/never reaches the broker/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'TV alerts' } });
    expect((within(form).getByLabelText('Account') as HTMLSelectElement).value).toBe('PA-1');
    fireEvent.click(within(form).getByLabelText('Test webhook'));
    const before = calls('Hooks').length;
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New webhook' })).toBeNull());
    expect(calls('HookCreate')[0]?.variables).toEqual({
      connectorKey: 'p',
      accountId: 'PA-1',
      name: 'TV alerts',
      isTest: true,
    });
    await waitFor(() => expect(calls('Hooks').length).toBeGreaterThan(before));
  });

  it("shows a refused webhook's reason in the form, and takes the focus to it", async () => {
    await render({ HookCreate: fixture(() => graphQLError('At most 50 webhooks per account')) });
    fireEvent.click(within(await card()).getByRole('button', { name: 'New webhook for Paper account' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    const create = within(form).getByRole('button', { name: 'Create webhook' });
    create.focus();
    fireEvent.click(create);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('At most 50 webhooks per account');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    // Refused again: read out and focused again.
    create.focus();
    fireEvent.click(create);
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole('alert')));
  });

  it('closes the new webhook form on Escape without creating anything', async () => {
    const { calls } = await render();
    fireEvent.click(within(await card()).getByRole('button', { name: 'New webhook for Paper account' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    const name = within(form).getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'TV alerts' } });
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'New webhook' })).toBeNull();
    expect(calls('HookCreate')).toHaveLength(0);
    expect(document.activeElement).toBe(
      within(await card()).getByRole('button', { name: 'New webhook for Paper account' }),
    );
  });

  it('ties a new webhook name that is too long to its field, for screen readers', async () => {
    const { calls } = await render();
    fireEvent.click(within(await card()).getByRole('button', { name: 'New webhook for Paper account' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    const name = within(form).getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'x'.repeat(65) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    const error = await within(form).findByText('At most 64 characters');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(calls('HookCreate')).toHaveLength(0);
  });

  it("renames a hook ('Required' when empty) and shows a server error", async () => {
    const { calls } = await render({
      HookUpdate: fixture(({ variables }) =>
        variables.name === 'Taken'
          ? graphQLError('Name taken')
          : { data: { hookUpdate: { key: 'h1', name: variables.name } } },
      ),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Rename webhook Main hook' }));
    const field = screen.getByLabelText('Webhook name');
    fireEvent.change(field, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'Taken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name taken')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'Renamed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Webhook name')).toBeNull());
    expect(calls('HookUpdate').at(-1)?.variables).toEqual({ key: 'h1', name: 'Renamed' });
  });

  it('gives the focus back to Rename when a webhook or account rename is cancelled or saved', async () => {
    await render({
      HookUpdate: fixture(({ variables }) => ({ data: { hookUpdate: { key: 'h1', name: variables.name } } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Rename webhook Main hook' }));
    fireEvent.keyDown(screen.getByLabelText('Webhook name'), { key: 'Escape' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename webhook Main hook' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rename webhook Main hook' }));
    fireEvent.change(screen.getByLabelText('Webhook name'), { target: { value: 'Renamed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Webhook name')).toBeNull());
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Rename webhook /);
    fireEvent.click(screen.getByRole('button', { name: 'Rename account Paper account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename account Paper account' }));
  });

  it('renames an account through connectorUpdate', async () => {
    const { calls } = await render({
      ConnectorUpdate: fixture(() => ({ data: { connectorUpdate: { key: 'p', accounts: '[]' } } })),
    });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Rename account Paper account' }));
    fireEvent.change(screen.getByLabelText('Account name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(calls('ConnectorUpdate')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Account name'), { target: { value: 'Swing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('ConnectorUpdate')).toHaveLength(1));
    expect(calls('ConnectorUpdate')[0]?.variables).toEqual({ key: 'p', accounts: '[{"id":"PA-1","name":"Swing"}]' });
  });

  it('deletes a webhook after confirming; a failure is ignored and the list refreshes', async () => {
    const { calls } = await render({ HookDelete: fixture(() => graphQLError('nope')) });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Delete webhook Main hook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    expect(calls('HookDelete')).toHaveLength(0);
    const before = calls('Hooks').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('HookDelete')[0]?.variables).toEqual({ key: 'h1' });
    expect(calls('Hooks').length).toBeGreaterThan(before);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says, before deleting a webhook, that the signals it has queued for its window will not be placed', async () => {
    const queued = (id: string, hookKey: string, status = 'queued') => ({
      id,
      hookKey,
      status,
      placeAt: Date.UTC(2026, 10, 30, 14, 30),
      order: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
    });
    const rows = [queued('q1', 'h1'), queued('q2', 'h1'), queued('q3', 'h2'), queued('q4', 'h1', 'placed')];
    await render({ QueuedSignals: fixture(() => ({ data: { queuedSignals: rows } })) });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Delete webhook Main hook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    await within(dialog).findByText('Its 2 signals queued until its trading window opens will not be placed either.');
  });

  it("keeps the focus in the webhook's account when the webhook it was on is deleted, not at the page's start", async () => {
    let hooks = [hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook' })];
    await render({
      Hooks: fixture(() => ({ data: { hooks } })),
      HookDelete: fixture(() => {
        hooks = [];
        return { data: { hookDelete: true } };
      }),
    });
    const remove = await within(await card()).findByRole('button', { name: 'Delete webhook Main hook' });
    remove.focus();
    fireEvent.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete webhook Main hook' })).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('region', { name: /Paper account/ })));
  });

  it('deletes a broker after a confirmation that names its webhooks', async () => {
    const { calls } = await render({ ConnectorDelete: fixture(() => ({ data: { connectorDelete: true } })) });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Delete broker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete broker' });
    expect(within(dialog).getByText(/also deletes its webhook and the notification settings/)).toBeTruthy();
    const before = calls('Connectors').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('ConnectorDelete')[0]?.variables).toEqual({ key: 'p' });
    expect(calls('Connectors').length).toBeGreaterThan(before);
  });

  it('counts the webhooks the broker has now in its delete confirmation, after one was deleted', async () => {
    let hooks = [
      hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook' }),
      hook({ key: 'h2', accountId: 'PA-1', name: 'Second hook' }),
    ];
    await render({
      Hooks: fixture(() => ({ data: { hooks } })),
      HookDelete: fixture(({ variables }) => {
        hooks = hooks.filter((h) => h.key !== variables.key);
        return { data: { hookDelete: true } };
      }),
    });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Delete broker' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete broker' });
    expect(await within(dialog).findByText(/also deletes its 2 webhooks/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(await within(await card()).findByRole('button', { name: 'Delete webhook Second hook' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(within(screen.getByRole('article', { name: 'Paper Trading' })).queryByText('Second hook')).toBeNull(),
    );

    fireEvent.click(within(await card()).getByRole('button', { name: 'Delete broker' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete broker' });
    await waitFor(() => expect(within(dialog).getByText(/also deletes its webhook and/)).toBeTruthy());
  });
});

describe('risk controls and the kill switch', () => {
  const controlled = () =>
    fixture(() => ({
      data: {
        hooks: [
          hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook', rules: '{"maxQuantity":10}', pausedReason: null }),
        ],
      },
    }));

  it('closes the risk controls unsaved on Escape; Escape in its confirmation closes only the confirmation', async () => {
    const { calls } = await render({
      Hooks: controlled(),
      HookRules: fixture(({ variables }) => ({ data: { hookUpdate: { key: 'h1', rules: variables.rules } } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const form = screen.getByRole('form', { name: 'Risk controls of Main hook' });
    const editor = within(form).getByLabelText('Risk controls (JSON)');
    fireEvent.change(editor, { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save controls' }));
    const dialog = await screen.findByRole('dialog');
    // react-bootstrap's modal reads the key's code.
    fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('form', { name: 'Risk controls of Main hook' })).toBeTruthy();
    fireEvent.change(editor, { target: { value: '{"maxQuantity":5}' } });
    fireEvent.keyDown(editor, { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Risk controls of Main hook' })).toBeNull();
    expect(calls('HookRules')).toHaveLength(0);
    expect(document.activeElement).toBe(
      within(await card()).getByRole('button', { name: 'Risk controls of webhook Main hook' }),
    );
  });

  it('asks before saving empty controls, which removes every limit of the webhook', async () => {
    const { calls } = await render({
      Hooks: controlled(),
      HookRules: fixture(({ variables }) => ({ data: { hookUpdate: { key: 'h1', rules: variables.rules } } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const form = screen.getByRole('form', { name: 'Risk controls of Main hook' });
    fireEvent.change(within(form).getByLabelText('Risk controls (JSON)'), { target: { value: '  ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save controls' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls('HookRules')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('HookRules')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('button', { name: 'Save controls' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove all controls' }));
    await waitFor(() => expect(calls('HookRules')).toHaveLength(1));
    expect(calls('HookRules')[0]?.variables).toEqual({ key: 'h1', rules: '{}' });
  });

  it("ties the server's refusal of risk controls, and of a pause, to their fields for screen readers", async () => {
    await render({
      Hooks: controlled(),
      HookRules: fixture(() => graphQLError('maxQuantity: must be a positive number')),
      HooksPause: fixture(() => graphQLError('Reason too long')),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const form = screen.getByRole('form', { name: 'Risk controls of Main hook' });
    const editor = within(form).getByLabelText('Risk controls (JSON)');
    fireEvent.change(editor, { target: { value: '{"maxQuantity": -1}' } });
    const saveControls = within(form).getByRole('button', { name: 'Save controls' });
    saveControls.focus();
    fireEvent.click(saveControls);
    const error = await within(form).findByText('maxQuantity: must be a positive number');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(editor.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    // Save was disabled by the call: the focus goes to the field the refusal is about.
    expect(document.activeElement).toBe(editor);

    const kill = screen.getByRole('form', { name: 'Kill switch' });
    const reason = within(kill).getByLabelText('Pause all webhooks: reason');
    const pause = within(kill).getByRole('button', { name: 'Pause all webhooks' });
    pause.focus();
    fireEvent.click(pause);
    const refusal = await within(kill).findByText('Reason too long');
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(reason.getAttribute('aria-describedby')?.split(' ')).toContain(refusal.id);
    expect(document.activeElement).toBe(reason);
  });

  it('keeps the open edits of the page when all webhooks are paused, and reloads them', async () => {
    const { calls } = await render({
      Hooks: controlled(),
      HooksPause: fixture(() => ({ data: { hooksPause: 1 } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const editor = within(screen.getByRole('form', { name: 'Risk controls of Main hook' })).getByLabelText(
      'Risk controls (JSON)',
    );
    fireEvent.change(editor, { target: { value: '{"maxQuantity": 5}' } });
    const before = calls('Hooks').length;
    const kill = screen.getByRole('form', { name: 'Kill switch' });
    fireEvent.change(within(kill).getByLabelText('Pause all webhooks: reason'), { target: { value: 'FOMC' } });
    fireEvent.click(within(kill).getByRole('button', { name: 'Pause all webhooks' }));
    expect((await within(kill).findByRole('status')).textContent).toBe('1 webhook paused');
    await waitFor(() => expect(calls('Hooks').length).toBeGreaterThan(before));
    expect(
      (
        within(screen.getByRole('form', { name: 'Risk controls of Main hook' })).getByLabelText(
          'Risk controls (JSON)',
        ) as HTMLTextAreaElement
      ).value,
    ).toBe('{"maxQuantity": 5}');
  });

  it('keeps the brokers and the open edits when reloading them after a change fails for a moment', async () => {
    let fail = false;
    const { calls } = await render({
      Connectors: fixture(() =>
        fail
          ? graphQLError('Service unavailable', 'SERVICE_UNAVAILABLE')
          : { data: { connectors: [connector({ key: 'p' })] } },
      ),
      Hooks: fixture(() => ({
        data: { hooks: [hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook', rules: '{}' })] },
      })),
      ConnectorUpdate: fixture(() => ({ data: { connectorUpdate: { key: 'p', accounts: '[]' } } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const editor = () =>
      within(screen.getByRole('form', { name: 'Risk controls of Main hook' })).getByLabelText(
        'Risk controls (JSON)',
      ) as HTMLTextAreaElement;
    fireEvent.change(editor(), { target: { value: '{"maxQuantity": 5}' } });
    fail = true;
    const before = calls('Connectors').length;
    fireEvent.click(screen.getByRole('button', { name: 'Rename account Paper account' }));
    fireEvent.change(screen.getByLabelText('Account name'), { target: { value: 'Swing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('Connectors').length).toBeGreaterThan(before));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/Cannot load your brokers/)).toBeNull();
    expect(editor().value).toBe('{"maxQuantity": 5}');
  });

  it('keeps the webhooks and the open edits when reloading them fails for a moment', async () => {
    let fail = false;
    const { calls } = await render({
      Hooks: fixture(() =>
        fail
          ? graphQLError('Service unavailable', 'SERVICE_UNAVAILABLE')
          : { data: { hooks: [hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook', rules: '{}' })] } },
      ),
      HooksPause: fixture(() => ({ data: { hooksPause: 1 } })),
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Risk controls of webhook Main hook' }));
    const editor = () =>
      within(screen.getByRole('form', { name: 'Risk controls of Main hook' })).getByLabelText(
        'Risk controls (JSON)',
      ) as HTMLTextAreaElement;
    fireEvent.change(editor(), { target: { value: '{"maxQuantity": 5}' } });
    fail = true;
    const before = calls('Hooks').length;
    const kill = screen.getByRole('form', { name: 'Kill switch' });
    fireEvent.change(within(kill).getByLabelText('Pause all webhooks: reason'), { target: { value: 'FOMC' } });
    fireEvent.click(within(kill).getByRole('button', { name: 'Pause all webhooks' }));
    await waitFor(() => expect(calls('Hooks').length).toBeGreaterThan(before));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Cannot load the webhooks.')).toBeNull();
    expect(editor().value).toBe('{"maxQuantity": 5}');
  });
});
