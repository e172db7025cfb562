// The webhook's signature headers are what the `standardwebhooks` package signs and verifies
// (receivers use it), with one secret and with two after a rotation.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookBody, webhookHeaders } from './webhook-message.ts';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const event = {
  id: 'msg_0123456789abcdef',
  type: 'order.filled',
  at: new Date('2026-11-27T03:00:00.123Z'),
  data: { symbol: 'AAPL', note: 'é "q" \u2028' },
};

describe('webhookHeaders', () => {
  it('signs id.timestamp.body as standardwebhooks does, one signature per secret', async () => {
    const current = secret();
    const previous = secret();
    const now = new Date('2026-11-27T03:00:05.999Z');
    const body = webhookBody(event);
    const headers = await webhookHeaders(event, body, [current, previous], now);
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-timestamp']).toBe('1795748405');
    expect(headers['webhook-signature']).toBe(
      `${new Webhook(current).sign(event.id, now, body)} ${new Webhook(previous).sign(event.id, now, body)}`,
    );
    const fresh = new Date();
    const signed = await webhookHeaders(event, body, [current], fresh);
    expect(new Webhook(current).verify(body, signed)).toEqual(JSON.parse(body));
    expect(() => new Webhook(previous).verify(body, signed)).toThrow('No matching signature found');
  });
});
