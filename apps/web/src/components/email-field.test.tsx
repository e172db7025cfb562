import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailField } from './email-field.tsx';

const registration = { name: 'email', onChange: async () => undefined, onBlur: async () => undefined, ref: () => {} };

describe('EmailField', () => {
  it('is an email input with the email keyboard, filled as the account email unless told', () => {
    render(<EmailField registration={registration} error={undefined} />);
    const input = screen.getByLabelText('Email') as HTMLInputElement;
    expect([input.type, input.inputMode, input.autocomplete]).toEqual(['email', 'email', 'email']);
  });

  it('signs in as the username, names another user without autofill, and shows its error', () => {
    render(<EmailField registration={registration} error={undefined} autoComplete="username" />);
    expect((screen.getByLabelText('Email') as HTMLInputElement).autocomplete).toBe('username');
    document.body.innerHTML = '';
    render(<EmailField registration={registration} error="Invalid email" autoComplete="off" />);
    const input = screen.getByLabelText('Email') as HTMLInputElement;
    expect(input.autocomplete).toBe('off');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Invalid email')).toBeTruthy();
  });
});
