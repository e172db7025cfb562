import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, type GraphQLPayload, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute } from '../../test/render-route.tsx';
import { deferred } from '../../test/render-with-client.tsx';

const CUSTOMER = 4;
const PROFESSIONAL = 16;
const ADDED = Date.UTC(2024, 1, 3, 9, 30);

const grant = (key: string, name: string | null) => ({
  key,
  createdAt: ADDED,
  metadata: { scopes: ['openid', 'accounts:read', 'orders:write'] },
  userApp: name === null ? null : { key: `app-${key}`, name },
});

describe('settings: authorized applications (SPEC §2 Settings)', () => {
  it('is hidden without any, and lists them with the count, names or Noname and Added at', async () => {
    const empty = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER) });
    await waitFor(() => expect(empty.calls('AuthorizedApps')).toHaveLength(1));
    await act(async () => {}); // the empty answer renders
    expect(screen.queryByRole('heading', { name: 'Authorized applications' })).toBeNull();
    document.body.innerHTML = '';

    await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        AuthorizedApps: fixture(() => ({ data: { userTokens: [grant('g1', 'Journal'), grant('g2', '')] } })),
      },
    });
    const section = (await screen.findByRole('heading', { name: 'Authorized applications' })).closest(
      'section',
    ) as HTMLElement;
    expect(
      within(section).getByText('You have granted 2 application(s) access to your connected accounts'),
    ).toBeTruthy();
    expect(within(section).getByText('Journal')).toBeTruthy();
    expect(within(section).getByText('Noname')).toBeTruthy();
    // What each may do, in the consent screen's words (identity scopes are no ability).
    const may = within(section).getByRole('list', { name: 'What Journal may do' });
    expect(
      within(may)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Read the list of your connected brokerage accounts', 'Submit orders on your request']);
    expect(within(section).getAllByText(/^Added at/)[0]?.textContent).toMatch(/Added at 2\/3\/2024, \d\d:\d\d/);
    expect(
      within(screen.getByRole('navigation', { name: 'Settings' })).getByText('Authorized applications'),
    ).toBeTruthy();
  });

  it('revokes one by key after confirming', async () => {
    let grants = [grant('g1', 'Journal')];
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        AuthorizedApps: fixture(() => ({ data: { userTokens: grants } })),
        UserTokenDelete: fixture(() => {
          grants = [];
          return { data: { userTokenDelete: true } };
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Journal' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Authorized applications' })).toBeNull());
    expect(calls('UserTokenDelete')[0]?.variables).toEqual({ key: 'g1' });
  });

  it('keeps the applications shown when the revoke and the reload after it fail (their access goes on)', async () => {
    let down = false;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        AuthorizedApps: fixture(() =>
          down
            ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
            : { data: { userTokens: [grant('g1', 'Journal'), grant('g2', 'Tax export')] } },
        ),
        UserTokenDelete: fixture(() => {
          down = true;
          return graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR');
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Journal' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls('AuthorizedApps').length).toBeGreaterThan(1));
    await act(async () => {});
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Authorized applications' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke Journal' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke Tax export' })).toBeTruthy();
  });
});

describe('settings: developer applications (SPEC §2 Settings, §5)', () => {
  const app = {
    key: 'Ck3yAbCdEfGh1234',
    name: 'Journal',
    description: null,
    redirectUrl: 'https://j.example.com/cb',
    createdAt: ADDED,
  };

  it('shows the section to professionals only, linking to /api/docs', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER) });
    expect(screen.queryByRole('heading', { name: 'Applications' })).toBeNull();
    document.body.innerHTML = '';
    await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: { UserApps: fixture(() => ({ data: { userApps: [app] } })) },
    });
    const section = (await screen.findByRole('heading', { name: 'Applications' })).closest('section') as HTMLElement;
    expect(within(section).getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe('/api/docs');
    expect(await within(section).findByText('Journal')).toBeTruthy();
    expect(within(section).getByText(app.key).parentElement?.textContent).toBe(`ID ${app.key}`);
    expect(within(section).getByText(/^Created at/).textContent).toMatch(/Created at 2\/3\/2024, \d\d:\d\d/);
  });

  it('creates one: SPEC §5 messages, then the secret once and a reset form; a server error in red', async () => {
    let failNext = true;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: {
        UserAppCreate: fixture(() => {
          if (failNext) {
            failNext = false;
            return graphQLError('At most 20 applications; delete one first');
          }
          return { data: { userAppCreate: { key: 'NewKey1234567890', secret: 'client-secret-once' } } };
        }),
      },
    });
    click('Create application');
    const dialog = await screen.findByRole('dialog', { name: 'New application' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findAllByText('Required')).length).toBe(2);
    fill('Name', 'n'.repeat(65));
    fill('Callback URL', 'http://journal.example.com/cb');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('At most 64 characters')).toBeTruthy();
    expect(within(dialog).getByText('Invalid URL')).toBeTruthy();

    fill('Name', 'Journal');
    fill('Callback URL', 'https://journal.example.com/cb');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const refused = await within(dialog).findByRole('alert');
    expect(refused.textContent).toBe('At most 20 applications; delete one first');
    // Save was disabled by the call: the focus goes to the red alert, inside the dialog.
    await waitFor(() => expect(document.activeElement).toBe(refused));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('New secret token:')).toBeTruthy();
    expect((within(dialog).getByLabelText('New secret token') as HTMLInputElement).value).toBe('client-secret-once');
    // Focused by an effect after the render findByText saw (later on a busy machine).
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('New secret token')));
    expect(within(dialog).getByText('NewKey1234567890')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('');
    expect(calls('UserAppCreate').at(-1)?.variables).toEqual({
      name: 'Journal',
      description: null,
      redirectUrl: 'https://journal.example.com/cb',
    });
  });

  it('deletes one by key after confirming', async () => {
    let apps = [app];
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: {
        UserApps: fixture(() => ({ data: { userApps: apps } })),
        UserAppDelete: fixture(() => {
          apps = [];
          return { data: { userAppDelete: true } };
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Journal' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Journal' })).toBeNull());
    expect(calls('UserAppDelete')[0]?.variables).toEqual({ key: app.key });
  });

  it('shows the registered callback URL and edits it without deleting the application; a refusal in red', async () => {
    let apps: Array<Omit<typeof app, 'description'> & { description: string | null }> = [
      { ...app, description: 'Fills' },
    ];
    let refuse = true;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: {
        UserApps: fixture(() => ({ data: { userApps: apps } })),
        UserAppUpdate: fixture(({ variables }) => {
          if (refuse) {
            refuse = false;
            return graphQLError("An application's callback URL can only be changed by its owner", 'FORBIDDEN');
          }
          const metadata = (variables as { metadata: { redirectUrl: string } }).metadata;
          apps = [{ ...app, redirectUrl: metadata.redirectUrl, description: null }];
          return { data: { userAppUpdate: apps[0] } };
        }),
      },
    });
    const row = (await screen.findByText(app.redirectUrl)).closest('li') as HTMLElement;
    expect(within(row).getByText(app.redirectUrl).parentElement?.textContent).toBe(`Callback URL ${app.redirectUrl}`);
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Journal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit application' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Journal');
    expect((within(dialog).getByLabelText('Description (optional)') as HTMLInputElement).value).toBe('Fills');
    expect((within(dialog).getByLabelText('Callback URL') as HTMLInputElement).value).toBe(app.redirectUrl);
    fill('Callback URL', 'http://j.example.com/cb');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Invalid URL')).toBeTruthy();
    fill('Callback URL', 'http://localhost:3000/cb');
    fill('Description (optional)', '');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "An application's callback URL can only be changed by its owner",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit application' })).toBeNull());
    expect(await screen.findByText('http://localhost:3000/cb')).toBeTruthy();
    expect(calls('UserAppUpdate').at(-1)?.variables).toEqual({
      key: app.key,
      metadata: { name: 'Journal', description: '', redirectUrl: 'http://localhost:3000/cb' },
    });
  });

  it('replaces a leaked client secret after confirming, shows the new one once; a refusal in red', async () => {
    let refuse = true;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: {
        UserApps: fixture(() => ({ data: { userApps: [app] } })),
        UserAppSecretRotate: fixture(() => {
          if (refuse) {
            refuse = false;
            return graphQLError("An application's secret can only be replaced by its owner", 'FORBIDDEN');
          }
          return { data: { userAppSecretRotate: { key: app.key, secret: 'second-secret-once' } } };
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New secret for Journal' }));
    const dialog = await screen.findByRole('dialog', { name: 'New client secret' });
    expect(dialog.textContent).toContain('The current secret stops working at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace secret' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "An application's secret can only be replaced by its owner",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace secret' }));
    const secret = (await within(dialog).findByLabelText('New client secret')) as HTMLInputElement;
    expect(secret.value).toBe('second-secret-once');
    expect(within(dialog).queryByRole('button', { name: 'Replace secret' })).toBeNull();
    expect(calls('UserAppSecretRotate').map((call) => call.variables)).toEqual([{ key: app.key }, { key: app.key }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New client secret' })).toBeNull());
  });

  it('cannot be closed while saving: the client secret, shown only once, would arrive unseen', async () => {
    const answer = deferred<GraphQLPayload>();
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: { UserAppCreate: () => answer.promise },
    });
    click('Create application');
    const dialog = await screen.findByRole('dialog', { name: 'New application' });
    fill('Name', 'Journal');
    fill('Callback URL', 'https://journal.example.com/cb');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    answer.resolve({ data: { userAppCreate: { key: 'NewKey1234567890', secret: 'client-secret-once' } } });
    await waitFor(() => expect(calls('UserAppCreate')).toHaveLength(1));
    // Long enough for a closing dialog's fade to end (it would then be gone from the page).
    await act(() => new Promise((done) => setTimeout(done, 1000)));
    const shown = screen.getByRole('dialog', { name: 'New application' });
    expect(((await within(shown).findByLabelText('New secret token')) as HTMLInputElement).value).toBe(
      'client-secret-once',
    );
  });
});
