// Which reason a refusal's answer gives signal.refused, whatever refused it.
import { describe, expect, it } from 'vitest';
import type { HookEntry } from '../hooks/index.ts';
import { CONNECTOR_INACTIVE, hookInactive, hooksPaused, NO_SIGNALS_LEFT, refusal, ruleRefused } from './answers.ts';
import { refusalEvent, refusalReason } from './refusal-event.ts';

describe('refusalReason', () => {
  it('names the refusals of the issue, and any other as refused', () => {
    expect(refusalReason(refusal(400, 'ValidationError', 'action: must be buy or sell'))).toBe('invalid');
    expect(refusalReason(NO_SIGNALS_LEFT)).toBe('no_credits');
    expect(refusalReason(hookInactive('too many invalid requests'))).toBe('hook_inactive');
    expect(refusalReason(hookInactive(null))).toBe('hook_inactive');
    expect(refusalReason(CONNECTOR_INACTIVE)).toBe('connector_inactive');
    expect(refusalReason(hooksPaused('by you'))).toBe('refused');
    expect(refusalReason(ruleRefused('sourceAddresses', 'Source address not allowed'))).toBe('refused');
  });

  it("carries a webhook rule's name, and nothing for a test hook", () => {
    const entry = {
      userId: 1,
      connectorId: 2,
      accountId: 'A-1',
      hookKey: 'hk',
      shortKey: 'sk',
      name: 'Main',
      connectorKey: 'ck',
      providerName: 'paper',
      isTest: false,
    } as HookEntry;
    expect(refusalEvent(entry, ruleRefused('maxQuantity', 'quantity: above 10'))?.data).toEqual({
      hook: { key: 'hk', name: 'Main' },
      connectorKey: 'ck',
      providerName: 'paper',
      accountId: 'A-1',
      reason: 'refused',
      message: 'quantity: above 10',
      rule: 'maxQuantity',
    });
    expect(refusalEvent({ ...entry, isTest: true }, NO_SIGNALS_LEFT)).toBeUndefined();
  });
});
