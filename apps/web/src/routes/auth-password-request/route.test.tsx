import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute } from '../../test/render-route.tsx';

describe('password reset request (SPEC §2, §8)', () => {
  it("asks for the email ('Required')", async () => {
    const { calls } = await renderRoute('/auth/password/request');
    click('Send reset link');
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(calls('AuthPasswordResetRequest')).toHaveLength(0);
  });

  it('always answers the same, errors silent', async () => {
    const text = 'You will be sent an email with a password reset link, if the provided information is correct';
    const { calls } = await renderRoute('/auth/password/request', {
      handlers: { AuthPasswordResetRequest: fixture(() => graphQLError('Too many requests', 'RATE_LIMITED')) },
    });
    fill('Email', 'jo@example.com');
    click('Send reset link');
    // The answer replaces the form (and its pressed button): it takes the focus.
    const answer = await screen.findByRole('status');
    expect(answer.textContent).toBe(text);
    await waitFor(() => expect(document.activeElement).toBe(answer));
    expect(calls('AuthPasswordResetRequest')[0]?.variables).toEqual({ email: 'jo@example.com' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
