import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute } from '../../test/render-route.tsx';

const CUSTOMER = 4;
const ADMIN = 1;
const token = (key: string, name: string) => ({
  key,
  suffix: key.slice(-4),
  createdAt: Date.UTC(2024, 0, 31, 14, 5),
  metadata: { name },
});

function tokenServer() {
  let tokens = [token('tok-aaaa', 'Zapier')];
  return {
    UserTokens: fixture(() => ({ data: { userTokens: tokens } })),
    UserTokenCreate: fixture(() => {
      tokens = [...tokens, token('tok-bbbb', 'Script')];
      return { data: { userTokenCreate: { key: 'tok-bbbb', secret: 'secret-shown-once' } } };
    }),
    UserTokenUpdate: fixture(() => {
      tokens = [token('tok-aaaa', 'Zapier live')];
      return { data: { userTokenUpdate: tokens[0] } };
    }),
    UserTokenDelete: fixture(() => {
      tokens = [];
      return { data: { userTokenDelete: true } };
    }),
  };
}

describe('settings: API tokens (SPEC §2 Settings, §3 UserToken)', () => {
  it('lists tokens with name, suffix and local creation time', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: tokenServer() });
    const row = (await screen.findByText('Zapier')).closest('tr') as HTMLElement;
    expect(within(row).getByText('…aaaa')).toBeTruthy();
    expect(within(row).getByText(/1\/31\/2024, \d\d:\d\d/)).toBeTruthy();
  });

  it('creates a token and shows its secret once', async () => {
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: tokenServer() });
    click('Create token');
    expect(await screen.findByText('Required')).toBeTruthy();
    fill('Token name', 'Script');
    click('Create token');
    const secret = (await screen.findByLabelText('New secret token')) as HTMLInputElement;
    expect(secret.value).toBe('secret-shown-once');
    // The form that asked for it is gone: the focus goes to the secret, ready to copy (an effect
    // after the render findBy saw, later on a busy machine).
    await waitFor(() => expect(document.activeElement).toBe(secret));
    expect(calls('UserTokenCreate')[0]?.variables).toEqual({ metadata: { name: 'Script' } });
    expect(await screen.findByText('Script')).toBeTruthy();
    click('Done');
    expect(screen.queryByLabelText('New secret token')).toBeNull();
  });

  it('renames a token, keeping its other metadata', async () => {
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: tokenServer() });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Zapier' }));
    fill('New name', 'Zapier live');
    const row = screen.getByLabelText('New name').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Zapier live')).toBeTruthy();
    expect(calls('UserTokenUpdate')[0]?.variables).toEqual({ key: 'tok-aaaa', metadata: { name: 'Zapier live' } });
  });

  it('cancels a rename on Escape without saving, from the focused field', async () => {
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: tokenServer() });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Zapier' }));
    const field = screen.getByLabelText('New name');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: 'Zapier live' } });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByLabelText('New name')).toBeNull();
    expect(screen.getByText('Zapier')).toBeTruthy();
    expect(calls('UserTokenUpdate')).toHaveLength(0);
    // The keyboard goes on from the button that opened the form.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Zapier' }));
  });

  it("keeps the focus in API tokens when the token it was on is deleted, not at the page's start", async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: tokenServer() });
    const remove = await screen.findByRole('button', { name: 'Delete Zapier' });
    remove.focus();
    fireEvent.click(remove);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No tokens yet.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('region', { name: 'API tokens' })));
  });

  it('deletes after confirming; a failure is ignored but logged', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const handlers = { ...tokenServer(), UserTokenDelete: fixture(() => graphQLError('Token not found')) };
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Zapier' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Zapier')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('UserTokenDelete')[0]?.variables).toEqual({ key: 'tok-aaaa' });
    expect(debug).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('settings: general and menu', () => {
  it("opens at the section its address names (the recovery-code screen's /me/settings#two-factor)", async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    await renderRoute('/me/settings#two-factor', { user: fakeUser(CUSTOMER) });
    const section = screen.getByRole('region', { name: 'Two-factor authentication' });
    await waitFor(() => expect(scrolled).toContain(section));
  });

  it('saves the name and reloads the user', async () => {
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        UserUpdate: fixture(() => ({ data: { userUpdate: { ...fakeUser(CUSTOMER), lastName: 'Doe' } } })),
      },
    });
    fill('Last name', 'Doe');
    const save = within(screen.getByRole('form', { name: 'General' })).getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.click(save);
    const saved = await screen.findByText('Saved');
    // Save was disabled by the call (and stays so, nothing left to save): the focus goes to the outcome.
    await waitFor(() => expect(document.activeElement).toBe(saved));
    expect(calls('UserUpdate')[0]?.variables).toEqual({ firstName: 'Jo', lastName: 'Doe' });
    expect(calls('User').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's refusal of a new email under the email field, keeping what was typed", async () => {
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        UserUpdate: fixture(() => ({
          data: null,
          errors: [{ message: 'Email taken', extensions: { code: 'BAD_USER_INPUT', field: 'email' } }],
        })),
      },
    });
    const form = within(screen.getByRole('form', { name: 'General' }));
    const email = form.getByLabelText('Email') as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'taken@example.com' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    const error = await form.findByText('Email taken');
    await waitFor(() => expect(calls('UserUpdate')).toHaveLength(1));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(email.value).toBe('taken@example.com');
  });

  it('tells a pending email change the server knows of, after a reload too, until it is confirmed', async () => {
    await renderRoute('/me/settings', { user: { ...fakeUser(CUSTOMER), pendingEmail: 'new@example.com' } });
    const form = within(screen.getByRole('form', { name: 'General' }));
    const status = form.getByRole('status');
    expect(status.textContent).toBe(
      'A change of your email to new@example.com waits for confirmation: open the link we sent to that address.',
    );
    expect((form.getByLabelText('Email') as HTMLInputElement).value).toBe('jo@example.com');
  });

  it('tells no pending email change when there is none', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER) });
    expect(within(screen.getByRole('form', { name: 'General' })).queryByText(/waits for confirmation/)).toBeNull();
  });

  it('greys out Followers (3) for admins only', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER | ADMIN) });
    const menu = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(menu).getByText('Followers').getAttribute('aria-disabled')).toBe('true');
    expect(within(menu).getByText('3')).toBeTruthy();
  });

  it('shows no Followers item to a customer', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER) });
    expect(within(screen.getByRole('navigation', { name: 'Settings' })).queryByText('Followers')).toBeNull();
  });

  it('Logout ends the session on the server', async () => {
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER) });
    click('Logout');
    // SPEC §2: Logout goes to / (the landing page).
    await screen.findByRole('heading', { level: 1, name: 'Your TradingView alerts, placed as orders at your broker' });
    expect(calls('Signout')).toHaveLength(1);
    expect(calls('Signout')[0]?.headers.authorization).toBe('Bearer session-token');
  });
});
