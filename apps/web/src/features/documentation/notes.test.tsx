// The Notes' symbol examples, as a user copies them from the screen, read as the order language
// reads them: every spelling of the option is the one contract the note says it is.
import { parseSymbol } from '@router/orders';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Notes } from './notes.tsx';

function codesOf(term: string): string[] {
  const router = createMemoryRouter([{ path: '/', element: <Notes /> }]);
  render(<RouterProvider router={router} />);
  const definition = screen.getByText(term).nextElementSibling;
  return [...(definition?.querySelectorAll('code') ?? [])].map((code) => code.textContent ?? '');
}

describe('documentation notes', () => {
  it('spells the option symbols so that each copied one is the same contract', () => {
    const codes = codesOf('Option symbols');
    expect(codes).toHaveLength(4);
    const read = codes.map((code) => {
      try {
        return parseSymbol(code).canonical;
      } catch (error) {
        return `${JSON.stringify(code)}: ${(error as Error).message}`;
      }
    });
    expect(read).toEqual(codes.map(() => 'AAPL  271217C00200000'));
  });
});
