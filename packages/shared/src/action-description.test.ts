import { describe, expect, it } from 'vitest';
import { describeAction, isFailedOrderCall } from './action-description.ts';

describe('describeAction (SPEC §4 wording)', () => {
  it('words the fixed codes whatever the metadata', () => {
    expect(describeAction('Signin', { method: 'password' })).toBe('You signed in to the dashboard');
    expect(describeAction('Signin', {})).toBe('You signed in to the dashboard');
    expect(describeAction('AuthPasswordReset', '{}')).toBe('You reset the password');
    expect(describeAction('AuthPasswordResetRequest', null)).toBe('You requested password reset');
  });

  it('words connector actions', () => {
    expect(describeAction('ConnectorCreate', { providerName: 'paper', accounts: [{ id: 'A1' }, { id: 'A2' }] })).toBe(
      'paper account(s) #A1, #A2 connected',
    );
    expect(describeAction('ConnectorActivate', { connector: { providerName: 'kraken' }, accountIds: ['7'] })).toBe(
      'kraken account(s) #7 connected',
    );
    expect(describeAction('ConnectorActivate', { providerName: 'ibkr', accountId: 'U1' })).toBe(
      'ibkr account(s) #U1 connected',
    );
    expect(describeAction('ConnectorDeactivate', { providerName: 'paper' })).toBe('paper connection disabled');
    expect(describeAction('ConnectorDeactivate', { reason: 'x' })).toBe('connection disabled');
    expect(describeAction('ConnectorDelete', { provider: 'alpaca' })).toBe('alpaca disconnected');
  });

  it('names the provider by its title in every entry where the titles know it, else as recorded', () => {
    const titles = { paper: 'Paper Trading', ibkr: 'Interactive Brokers' };
    expect(describeAction('ConnectorActivate', { providerName: 'paper', accountIds: ['P1'] }, titles)).toBe(
      'Paper Trading account(s) #P1 connected',
    );
    expect(describeAction('ConnectorDelete', { providerName: 'ibkr' }, titles)).toBe(
      'Interactive Brokers disconnected',
    );
    const hook = { shortKey: 'abc', name: 'Main', providerName: 'paper', accountId: 'P1' };
    expect(describeAction('HookCreate', hook, titles)).toBe('Webhook abc (Main) created for Paper Trading #P1');
    expect(describeAction('Order', { ...hook, response: { status: 'filled' } }, titles)).toBe(
      'Webhook abc (Paper Trading#P1) called',
    );
    expect(describeAction('ConnectorDelete', { providerName: 'gone' }, titles)).toBe('gone disconnected');
    expect(describeAction('ConnectorDelete', { providerName: 'toString' }, titles)).toBe('toString disconnected');
  });

  it('words hook actions', () => {
    const metadata = { shortKey: 'abc', name: 'Main', providerName: 'paper', accountId: 'P1' };
    expect(describeAction('HookCreate', metadata)).toBe('Webhook abc (Main) created for paper #P1');
    expect(describeAction('HookDelete', { hook: { key: 'k1', name: 'Old', accountId: 'P2' }, provider: 'paper' })).toBe(
      'Webhook k1 (Old) removed from paper #P2',
    );
  });

  it('words orders, called or failed', () => {
    const base = { hook: 'hk', providerName: 'paper', accountId: 'P1' };
    expect(describeAction('Order', { ...base, response: { status: 'filled' } })).toBe('Webhook hk (paper#P1) called');
    expect(describeAction('Order', { ...base, response: { status: 'rejected' } })).toBe(
      'Webhook hk (paper#P1) call failed',
    );
    expect(describeAction('Order', JSON.stringify({ ...base, response: { error: 'No symbol found' } }))).toBe(
      'Webhook hk (paper#P1) call failed',
    );
    expect(isFailedOrderCall({ response: { status: 'ValidationError', message: 'No symbol found' } })).toBe(true);
    expect(isFailedOrderCall({ response: { status: 'accepted', error: null } })).toBe(false);
  });

  it('words a REST API order by who sent it, not by its hidden hook', () => {
    const api = { hook: { shortKey: 'api_Zx9', name: 'REST API', via: 'Journal Pro' }, providerName: 'paper' };
    const order = { ...api, accountId: 'P1', response: { status: 'filled' } };
    expect(describeAction('Order', order, { paper: 'Paper Trading' })).toBe(
      'REST API order from Journal Pro (Paper Trading#P1)',
    );
    expect(describeAction('Order', { ...order, response: { status: 'ValidationError', message: 'No symbol' } })).toBe(
      'REST API order from Journal Pro (paper#P1) failed',
    );
    // Entries written before the caller was recorded.
    expect(describeAction('Order', { ...order, hook: { shortKey: 'api_Zx9', name: 'REST API' } })).toBe(
      'REST API order (paper#P1)',
    );
  });

  it("words the codes of our own (a hook's switches and controls, the kill switch, a queued signal cancelled)", () => {
    const hook = { shortKey: 'abc', name: 'Main', providerName: 'paper', accountId: 'P1' };
    expect(describeAction('HookActivate', { ...hook, reason: 'too many invalid requests' })).toBe(
      'Webhook abc (Main) reactivated',
    );
    expect(
      describeAction('HookDeactivate', { hook: { key: 'k1', name: 'Main' }, reason: 'too many invalid requests' }),
    ).toBe('Webhook k1 (Main) deactivated: too many invalid requests');
    expect(describeAction('HookRules', { ...hook, rules: '{}' })).toBe('Webhook abc (Main) controls changed');
    expect(describeAction('HooksPause', { reason: 'broker outage', everyone: false, hooks: 2 })).toBe(
      'Webhooks paused: broker outage',
    );
    expect(describeAction('HooksResume', { everyone: false, hooks: 2 })).toBe('Webhooks resumed');
    expect(describeAction('QueuedSignalCancel', { id: 'q1', hookKey: 'k1' })).toBe('Queued signal q1 cancelled');
    expect(describeAction('QueuedSignalCancel', { id: 'q1', hookKey: 'k1', reason: 'webhook deleted' })).toBe(
      'Queued signal q1 cancelled: webhook deleted',
    );
  });

  it('shows the raw code for empty metadata and a dash for unknown codes', () => {
    expect(describeAction('HookCreate', {})).toBe('HookCreate');
    expect(describeAction('Order', 'not json')).toBe('Order');
    expect(describeAction('Whatever', { a: 1 })).toBe('-');
  });
});
