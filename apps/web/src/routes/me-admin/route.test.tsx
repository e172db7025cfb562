import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { providersHandler } from '../../test/connectors.ts';
import { fakeUser, fixture, graphQLError, httpFailure } from '../../test/fake-server.ts';
import { labelsWithoutControl } from '../../test/names.ts';
import { renderRoute } from '../../test/render-route.tsx';

const ADMIN = 1 | 4;
const CUSTOMER = 4;

const form = (name: string) => within(screen.getByRole('form', { name }));
const fillIn = (formName: string, label: string, value: string) =>
  fireEvent.change(form(formName).getByLabelText(label), { target: { value } });
const press = (formName: string, button: string) =>
  fireEvent.click(form(formName).getByRole('button', { name: button }));

afterEach(() => sessionStorage.clear());

describe('admin screen (SPEC §2 Admin)', () => {
  it('is for administrators only: a customer is sent to the dashboard', async () => {
    const { router } = await renderRoute('/me/admin', { user: fakeUser(CUSTOMER) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/me'));
  });

  it('applies a proxied user (lower-cased, checked by the server), shows the banner, and resets', async () => {
    const { calls, server } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminProxyStart: fixture(({ variables }) => ({ data: { adminProxyStart: variables.email } })),
        AdminProxyEnd: () => ({ data: { adminProxyEnd: true } }),
      },
    });
    fillIn('Proxied user', 'Email', 'Bob@Example.com');
    press('Proxied user', 'Save');
    expect(await screen.findByText('Applied')).toBeTruthy();
    expect(calls('AdminProxyStart')[0]?.variables).toEqual({ email: 'bob@example.com' });
    expect(sessionStorage.getItem('proxiedUserEmail')).toBe('bob@example.com');
    expect(screen.getByText('Switched to bob@')).toBeTruthy();
    // From then on every request names the user (the user itself was fetched again as them).
    expect(server.requests.filter((r) => r.name === 'User').at(-1)?.headers['x-user']).toBe('bob@example.com');
    // The admin screen stays open in proxy mode.
    expect(screen.getByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();

    press('Proxied user', 'Reset');
    await waitFor(() => expect(screen.queryByText('Switched to bob@')).toBeNull());
    // Recorded as the administrator: an X-User whose email no longer names the user (changed
    // meanwhile) would be refused before the record, leaving the proxy open.
    await waitFor(() => expect(server.requests.some((r) => r.name === 'AdminProxyEnd')).toBe(true));
    expect(calls('AdminProxyEnd')[0]?.variables).toEqual({ email: 'bob@example.com' });
    expect(server.requests.find((r) => r.name === 'AdminProxyEnd')?.headers['x-user']).toBeUndefined();
    expect(sessionStorage.getItem('proxiedUserEmail')).toBeNull();
  });

  it('records a double-clicked Reset once', async () => {
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminProxyStart: fixture(({ variables }) => ({ data: { adminProxyStart: variables.email } })),
        AdminProxyEnd: () => ({ data: { adminProxyEnd: true } }),
      },
    });
    fillIn('Proxied user', 'Email', 'bob@example.com');
    press('Proxied user', 'Save');
    expect(await screen.findByText('Applied')).toBeTruthy();
    press('Proxied user', 'Reset');
    press('Proxied user', 'Reset');
    await waitFor(() => expect(screen.queryByText('Switched to bob@')).toBeNull());
    await waitFor(() =>
      expect((form('Proxied user').getByRole('button', { name: 'Reset' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(calls('AdminProxyEnd')).toHaveLength(1);
  });

  it('says the proxied user was not applied when they cannot be loaded (server unreachable), and ends the proxy', async () => {
    const { calls, server } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminProxyStart: fixture(({ variables }) => ({ data: { adminProxyStart: variables.email } })),
        AdminProxyEnd: () => ({ data: { adminProxyEnd: true } }),
        // The server goes away right after recording 'proxy on': the user cannot be loaded as Bob.
        User: fixture(({ headers }) => {
          if (headers['x-user']) throw new TypeError('Failed to fetch');
          return { data: { user: fakeUser(ADMIN) } };
        }),
      },
    });
    fillIn('Proxied user', 'Email', 'bob@example.com');
    press('Proxied user', 'Save');
    expect((await form('Proxied user').findByRole('alert')).textContent).toBe(
      'Not applied. The server could not be reached. Check your connection and try again.',
    );
    expect(screen.queryByText('Applied')).toBeNull();
    expect(sessionStorage.getItem('proxiedUserEmail')).toBeNull();
    expect(screen.queryByText(/Switched to/)).toBeNull();
    // Still the administrator's screen; the 'proxy on' the server recorded is closed again, as the administrator.
    expect(screen.getByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();
    await waitFor(() => expect(calls('AdminProxyEnd')).toHaveLength(1));
    expect(calls('AdminProxyEnd')[0]?.variables).toEqual({ email: 'bob@example.com' });
    expect(server.requests.find((r) => r.name === 'AdminProxyEnd')?.headers['x-user']).toBeUndefined();
  });

  it("says 'User not registered or not activated' and stores nothing when the server refuses", async () => {
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminProxyStart: () => graphQLError('User not registered or not activated') },
    });
    fillIn('Proxied user', 'Email', 'nobody@example.com');
    press('Proxied user', 'Save');
    expect(await screen.findByText('User not registered or not activated')).toBeTruthy();
    expect(sessionStorage.getItem('proxiedUserEmail')).toBeNull();
    expect(screen.queryByText(/Switched to/)).toBeNull();
  });

  it('rewards 25 signals by default; bad input never reaches the server', async () => {
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminAccountReward: () => ({ data: { adminAccountReward: true } }) },
    });
    expect((form('Reward signals').getByLabelText('Credits') as HTMLInputElement).value).toBe('25');
    fillIn('Reward signals', 'Credits', '0');
    press('Reward signals', 'Add');
    expect(await form('Reward signals').findByText('Required')).toBeTruthy();
    expect(form('Reward signals').getByText('Must be greater than 0')).toBeTruthy();
    fillIn('Reward signals', 'Email', 'bob@example.com');
    fillIn('Reward signals', 'Credits', '2.5');
    press('Reward signals', 'Add');
    expect(await form('Reward signals').findByText('Must be a whole number')).toBeTruthy();
    expect(calls('AdminAccountReward')).toHaveLength(0);
    fillIn('Reward signals', 'Credits', '25');
    press('Reward signals', 'Add');
    expect(await screen.findByText('Successfully added')).toBeTruthy();
    expect(calls('AdminAccountReward')[0]?.variables).toEqual({
      email: 'bob@example.com',
      credits: 25,
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('takes away an earlier answer when the next submission is refused by its own fields: it spoke of other values', async () => {
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminAccountReward: () => ({ data: { adminAccountReward: true } }) },
    });
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    expect(await form('Reward signals').findByText('Successfully added')).toBeTruthy();
    fillIn('Reward signals', 'Email', 'ann@example.com');
    fillIn('Reward signals', 'Credits', '');
    press('Reward signals', 'Add');
    expect(await form('Reward signals').findByText('Required')).toBeTruthy();
    expect(form('Reward signals').queryByText('Successfully added')).toBeNull();
  });

  it('sends a double-clicked reward once', async () => {
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminAccountReward: () => ({ data: { adminAccountReward: true } }) },
    });
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    press('Reward signals', 'Add');
    expect(await screen.findByText('Successfully added')).toBeTruthy();
    expect(calls('AdminAccountReward')).toHaveLength(1);
  });

  it("says once, for every form, that the server could not serve: not 'Failed to fetch' or a proxy's page", async () => {
    let answer: () => Response = () => httpFailure(502, '<html><body><h1>502 Bad Gateway</h1></body></html>');
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminAccountReward: () => answer(),
        AdminReferrerCreate: () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    expect((await form('Reward signals').findByRole('alert')).textContent).toBe(
      'The server is unavailable right now and nothing was changed. Please try again in a moment.',
    );
    answer = () =>
      httpFailure(503, JSON.stringify({ status: 'Error', message: 'The server is shutting down, please try again' }), {
        'content-type': 'application/json',
        'retry-after': '5',
      });
    press('Reward signals', 'Add');
    await waitFor(() =>
      expect(form('Reward signals').getByRole('alert').textContent).toBe(
        'The server is unavailable right now and nothing was changed. Please try again in 5 seconds.',
      ),
    );
    // What was typed stays, for the retry.
    expect((form('Reward signals').getByLabelText('Email') as HTMLInputElement).value).toBe('bob@example.com');
    fillIn('Create a referrer link', 'Name', 'Spring');
    press('Create a referrer link', 'Create');
    expect((await form('Create a referrer link').findByRole('alert')).textContent).toBe(
      'The server could not be reached. Check your connection and try again.',
    );
  });

  it('sends a retry of a reward with the first idempotency key, and a new reward with a new one', async () => {
    let answer = () => graphQLError('Failed to fetch');
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminAccountReward: () => answer() },
    });
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    expect(await form('Reward signals').findByRole('alert')).toBeTruthy();
    answer = () => ({ data: { adminAccountReward: true } });
    press('Reward signals', 'Add');
    expect(await screen.findByText('Successfully added')).toBeTruthy();
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    await waitFor(() => expect(calls('AdminAccountReward')).toHaveLength(3));
    const [lost, retry, next] = calls('AdminAccountReward').map((c) => c.variables.idempotencyKey);
    expect(retry).toBe(lost);
    expect(next).not.toBe(lost);
    expect(calls('AdminAccountReward').map((c) => c.variables.email)).toEqual([
      'bob@example.com',
      'bob@example.com',
      'bob@example.com',
    ]);
  });

  it("shows 'Something went wrong...' when the server's message is 'Error'", async () => {
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminAccountReward: () => graphQLError('Error') },
    });
    fillIn('Reward signals', 'Email', 'bob@example.com');
    press('Reward signals', 'Add');
    expect(await screen.findByText('Something went wrong...')).toBeTruthy();
  });

  it('creates a campaign and shows its referrer link; checks name and brokerage first', async () => {
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminReferrerCreate: () => ({ data: { adminReferrerCreate: { code: 'k7m2q9xa' } } }) },
    });
    const create = 'Create a referrer link';
    expect(form(create).getByText('Complete and submit the form to get referrer link')).toBeTruthy();
    // Until a link exists there is nothing to label: no label points at the hint (nor anywhere else).
    expect(labelsWithoutControl(document.body)).toEqual([]);
    expect((form(create).getByLabelText('Credits') as HTMLInputElement).value).toBe('100');
    expect(form(create).getByRole('option', { name: '- None -' })).toBeTruthy();
    // SPEC §5, §9: a referrer name is at most 16 characters; the input takes no more.
    expect((form(create).getByLabelText('Name') as HTMLInputElement).maxLength).toBe(16);
    press(create, 'Create');
    expect(await form(create).findByText('Required, if brokerage is not selected')).toBeTruthy();
    fillIn(create, 'Name', 'A'.repeat(17));
    press(create, 'Create');
    expect(await form(create).findByText('At most 16 characters')).toBeTruthy();
    fillIn(create, 'Name', 'Spring!');
    press(create, 'Create');
    expect(await form(create).findByText('Special characters are not allowed')).toBeTruthy();
    expect(calls('AdminReferrerCreate')).toHaveLength(0);

    fillIn(create, 'Name', 'Spring 2025');
    fireEvent.change(form(create).getByLabelText('Brokerage'), { target: { value: 'paper' } });
    press(create, 'Create');
    const link = (await form(create).findByLabelText('Referrer link')) as HTMLInputElement;
    expect(labelsWithoutControl(document.body)).toEqual([]);
    expect(link.value).toBe(`${window.location.origin}/signup/k7m2q9xa`);
    expect(calls('AdminReferrerCreate')[0]?.variables).toEqual({
      name: 'Spring 2025',
      providerName: 'paper',
      credits: 100,
    });
  });

  it("takes the focus to the professional-status form's outcome, a failure read out in place", async () => {
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminUserProfessional: fixture(({ variables }) =>
          variables.email === 'bob@example.com'
            ? { data: { adminUserProfessional: { email: 'bob@example.com', group: 4 | 16 } } }
            : graphQLError('User not registered or not activated'),
        ),
      },
    });
    const name = 'Professional status';
    fillIn(name, 'Email', 'nobody@example.com');
    const grant = form(name).getByRole('button', { name: 'Grant' });
    grant.focus();
    fireEvent.click(grant);
    const failure = await form(name).findByRole('alert');
    expect(failure.textContent).toBe('User not registered or not activated');
    await waitFor(() => expect(document.activeElement).toBe(failure));
    fillIn(name, 'Email', 'bob@example.com');
    fireEvent.click(grant);
    const done = await form(name).findByText('Professional status granted');
    await waitFor(() => expect(document.activeElement).toBe(done));
  });

  it('shows professional status granted to the administrator at once, without a reload', async () => {
    const me = fakeUser(ADMIN);
    const { session, router } = await renderRoute('/me/admin', {
      user: me,
      handlers: {
        AdminUserProfessional: fixture(({ variables }) => {
          me.group = variables.isProfessional ? me.group | 16 : me.group & ~16;
          return { data: { adminUserProfessional: { email: me.email, group: me.group } } };
        }),
      },
    });
    fillIn('Professional status', 'Email', 'JO@example.com');
    press('Professional status', 'Grant');
    expect(await form('Professional status').findByText('Professional status granted')).toBeTruthy();
    expect(session.getState().isProfessional).toBe(true);
    // The account screen no longer offers to apply for it.
    await router.navigate('/me/account');
    await screen.findByRole('heading', { level: 1, name: 'Account & Billing' });
    expect(screen.queryByText('Request professional status')).toBeNull();
  });

  it('says beside Remove that a plan selling professional status ends with the period paid', async () => {
    await renderRoute('/me/admin', { user: fakeUser(ADMIN) });
    const remove = form('Professional status').getByRole('button', { name: 'Remove' });
    const note = document.getElementById(remove.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toContain('Remove also cancels the user’s plans that sell professional status');
    expect(note?.textContent).toContain('not charged again');
  });

  it('offers only the brokerages a referred user can connect on this server', async () => {
    await renderRoute('/me/admin', { user: fakeUser(ADMIN), handlers: { Providers: providersHandler } });
    const select = form('Create a referrer link').getByLabelText('Brokerage');
    const offered = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    // Lightspeed is unavailable (no order API; an unconfigured OAuth broker reads the same), Gone is disabled.
    expect(offered).toEqual(['- None -', 'Alpaca', 'BitMEX', 'E*TRADE', 'Paper Trading', 'Schwab']);
  });

  it('deletes a campaign by link or suffix (Check is disabled)', async () => {
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminReferrerDelete: () => ({ data: { adminReferrerDelete: true } }) },
    });
    const remove = 'Delete a referrer link';
    expect((form(remove).getByRole('button', { name: 'Check' }) as HTMLButtonElement).disabled).toBe(true);
    fillIn(remove, 'Link or suffix', 'http://localhost/signup/k7m2q9xa');
    press(remove, 'Delete');
    expect(await screen.findByText('Deleted the referrer link')).toBeTruthy();
    expect(calls('AdminReferrerDelete')[0]?.variables).toEqual({
      referrerCodeOrUrl: 'http://localhost/signup/k7m2q9xa',
    });
  });

  it('stops offering the referrer link once its campaign is deleted, keeping it when another one is', async () => {
    await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminReferrerCreate: () => ({ data: { adminReferrerCreate: { code: 'k7m2q9xa' } } }),
        AdminReferrerDelete: () => ({ data: { adminReferrerDelete: true } }),
      },
    });
    const create = 'Create a referrer link';
    const remove = 'Delete a referrer link';
    fillIn(create, 'Name', 'Spring 2025');
    press(create, 'Create');
    await form(create).findByLabelText('Referrer link');
    fillIn(remove, 'Link or suffix', 'other123');
    press(remove, 'Delete');
    await screen.findByText('Deleted the referrer link');
    expect(form(create).getByLabelText('Referrer link')).toBeTruthy();

    fillIn(remove, 'Link or suffix', `${window.location.origin}/signup/K7M2Q9XA`);
    press(remove, 'Delete');
    await waitFor(() => expect(form(create).queryByLabelText('Referrer link')).toBeNull());
    expect(form(create).getByText('Complete and submit the form to get referrer link')).toBeTruthy();
  });

  it('downloads the stats as a CSV file named for the referrers', async () => {
    const csv = 'name,code\r\nSpring,k7m2q9xa\r\n';
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:stats';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('signal-router-referrers.csv');
    });
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: { AdminReferrerStatsReport: () => ({ data: { adminReferrerStatsReport: csv } }) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download stats' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls('AdminReferrerStatsReport')).toHaveLength(1);
    expect(await created[0]?.text()).toBe(csv);
    click.mockRestore();
    vi.unstubAllGlobals();
  });

  it('lists the audit log, newest first, with More for older entries', async () => {
    const entry = (id: number) => ({
      id,
      createdAt: Date.UTC(2024, 0, 31, 12, 0, id),
      adminEmail: 'admin@example.com',
      targetEmail: id === 1 ? null : 'bob@example.com',
      action: id === 1 ? 'stats_download' : 'reward',
      details: id === 1 ? '{"campaigns":2}' : '{"credits":25}',
    });
    const { calls } = await renderRoute('/me/admin', {
      user: fakeUser(ADMIN),
      handlers: {
        AdminAuditLog: fixture(({ variables }) => ({
          data: {
            adminAuditLog: variables.createdAtFrom ? [entry(1)] : Array.from({ length: 20 }, (_, i) => entry(40 - i)),
          },
        })),
      },
    });
    const table = await screen.findByRole('table');
    expect((await within(table).findAllByText('Reward')).length).toBe(20);
    expect(within(table).getAllByText('credits: 25').length).toBe(20);
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    expect(await within(table).findByText('Stats downloaded')).toBeTruthy();
    expect(calls('AdminAuditLog').at(-1)?.variables).toEqual({ createdAtFrom: entry(21).createdAt });
  });
});
