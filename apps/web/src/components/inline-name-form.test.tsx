import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferred } from '../test/render-with-client.tsx';
import { InlineNameForm } from './inline-name-form.tsx';

describe('inline rename', () => {
  it('takes no typing while the save is in flight (the form closes on success, dropping it)', async () => {
    const answer = deferred<string | null>();
    const sent: string[] = [];
    render(
      <InlineNameForm
        initial="Main"
        label="Account name"
        schema={z.string().min(1)}
        onCancel={() => {}}
        onSave={(name) => {
          sent.push(name);
          return answer.promise;
        }}
      />,
    );
    const field = screen.getByLabelText('Account name') as HTMLInputElement;
    expect(field.readOnly).toBe(false);
    fireEvent.change(field, { target: { value: 'Swing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual(['Swing']));
    expect(field.readOnly).toBe(true);
    answer.resolve('Name taken');
    await waitFor(() => expect(field.readOnly).toBe(false));
    expect(screen.getByText('Name taken')).toBeTruthy();
  });
});
