import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { hook } from '../../test/connectors.ts';
import type { FakeHandler, GraphQLPayload } from '../../test/fake-server.ts';
import { deferred, renderWithClient } from '../../test/render-with-client.tsx';
import type { HookItem } from './hook-model.ts';
import { HookRulesForm } from './hook-rules-form.tsx';

const item = hook({ key: 'h1', accountId: 'PA-1', name: 'Main hook', rules: '{"maxQuantity":10}' }) as HookItem;

function render(HookRules: FakeHandler) {
  const onSaved = vi.fn();
  const view = renderWithClient(<HookRulesForm hook={item} onSaved={onSaved} onClose={() => {}} />, {
    QueuedSignals: () => ({ data: { queuedSignals: [] } }),
    HookRules,
  });
  const editor = screen.getByLabelText('Risk controls (JSON)') as HTMLTextAreaElement;
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save controls' }));
  return { ...view, onSaved, editor, save };
}

describe('the risk controls editor', () => {
  // The day of maxOrdersPerDay was UTC's, unsaid: a New York trader's count started afresh at 19:00.
  it('names dayTimeZone among the keys and in its example', () => {
    const { editor } = render(() => ({ data: { hookUpdate: { key: 'h1', rules: '{}' } } }));
    expect(
      screen.getByText(/dayTimeZone and dayStartsAt \(the day maxOrdersPerDay counts; midnight UTC without them\)/),
    ).toBeTruthy();
    expect(JSON.parse(editor.placeholder)).toMatchObject({ maxOrdersPerDay: 50, dayTimeZone: 'America/New_York' });
  });
});

describe('saving risk controls', () => {
  it('keeps what was typed while the save was in flight, unsaved, instead of the server’s formatting', async () => {
    const answer = deferred<GraphQLPayload>();
    const { editor, save, onSaved, calls } = render(() => answer.promise);
    fireEvent.change(editor, { target: { value: '{"maxQuantity":5}' } });
    save();
    await waitFor(() => expect(calls('HookRules')).toHaveLength(1));
    fireEvent.change(editor, { target: { value: '{"maxQuantity":5,"maxOrdersPerDay":3}' } });
    answer.resolve({ data: { hookUpdate: { key: 'h1', rules: '{"maxQuantity":5}' } } });
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(editor.value).toBe('{"maxQuantity":5,"maxOrdersPerDay":3}');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the server’s formatting of each save when nothing was typed meanwhile', async () => {
    const { editor, save, onSaved } = render(({ variables }) => ({
      data: { hookUpdate: { key: 'h1', rules: String(variables.rules) } },
    }));
    fireEvent.change(editor, { target: { value: '{"maxQuantity":5}' } });
    save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(editor.value).toBe('{\n  "maxQuantity": 5\n}');
    expect(screen.getByRole('status').textContent).toBe('Saved');
    save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(editor.value).toBe('{\n  "maxQuantity": 5\n}');
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });
});
