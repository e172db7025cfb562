import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from './copy-button.tsx';

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('CopyButton', () => {
  it("says 'Copied' only of the text it copied: an edit since reads the button's label again", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { rerender } = render(<CopyButton text='{"symbol": "AAPL"}' />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByRole('button', { name: 'Copied' });
    expect(writeText).toHaveBeenCalledWith('{"symbol": "AAPL"}');
    // The order edited within the moment 'Copied' shows: the clipboard holds the old one.
    rerender(<CopyButton text='{"symbol": "MSFT"}' />);
    expect(screen.getByRole('button').textContent).toBe('Copy');
    // Back to the copied text (an undo): it is the clipboard's again.
    rerender(<CopyButton text='{"symbol": "AAPL"}' />);
    expect(screen.getByRole('button').textContent).toBe('Copied');
  });

  it('asks to select and copy by hand when the clipboard refuses', async () => {
    const writeText = vi.fn(async (_text: string) => {
      throw new Error('denied');
    });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<CopyButton text="secret" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByRole('button', { name: 'Select and copy' });
  });
});
