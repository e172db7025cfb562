import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { fill, renderRoute } from '../../test/render-route.tsx';

const strong = fixture(() => ({ data: { authPasswordEstimate: 12 } }));
const submit = () =>
  fireEvent.click(
    within(screen.getByRole('form', { name: 'Password' })).getByRole('button', { name: 'Change password' }),
  );

describe('settings: password change', () => {
  it("checks the fields (SPEC §5 messages), shows the server's answer by field, then succeeds", async () => {
    let wrongFirst = true;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: {
        AuthPasswordEstimate: strong,
        UserPasswordUpdate: fixture(() => {
          if (wrongFirst) {
            wrongFirst = false;
            return {
              data: null,
              errors: [
                {
                  message: 'The current password is not correct',
                  extensions: { code: 'BAD_USER_INPUT', field: 'password' },
                },
              ],
            };
          }
          return { data: { userPasswordUpdate: true } };
        }),
      },
    });
    submit();
    expect((await screen.findAllByText('Required')).length).toBe(3);
    fill('Current password', 'Old-Password-1!');
    fill('New password', 'Harbor-Velvet-Orchid-77?');
    fill('New password confirmation', 'other');
    submit();
    expect(await screen.findByText("Password confirmation doesn't match password.")).toBeTruthy();
    fill('New password confirmation', 'Harbor-Velvet-Orchid-77?');
    submit();
    expect(await screen.findByText('The current password is not correct')).toBeTruthy();
    submit();
    const changed = await screen.findByText('Password changed. You were signed out on your other devices.');
    await waitFor(() => expect(document.activeElement).toBe(changed));
    expect(calls('UserPasswordUpdate').at(-1)?.variables).toEqual({
      password: 'Old-Password-1!',
      newPassword: 'Harbor-Velvet-Orchid-77?',
      newPassword2: 'Harbor-Velvet-Orchid-77?',
    });
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it("refuses a weak new password before asking the server ('Password too weak.')", async () => {
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: {
        AuthPasswordEstimate: fixture(() => ({ data: { authPasswordEstimate: 4 } })),
        UserPasswordUpdate: fixture(() => graphQLError('unexpected')),
      },
    });
    fill('Current password', 'Old-Password-1!');
    fill('New password', 'password1');
    fill('New password confirmation', 'password1');
    submit();
    expect(await screen.findByText('Password too weak.')).toBeTruthy();
    expect(calls('UserPasswordUpdate')).toHaveLength(0);
  });
});
