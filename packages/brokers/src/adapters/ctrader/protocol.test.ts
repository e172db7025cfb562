// Spotware's .proto files through protobufjs: every published example of broker-specs/ctrader
// (JSON form) encodes to a ProtoMessage frame and decodes back to the same fields.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { decodeMessage, encodeMessage, invalidPayload, messageName, payloadTypeOf } from './protocol.ts';

interface Framed {
  clientMsgId?: string;
  payloadType: number;
  payload: Record<string, unknown>;
}

const folder = brokerSpecsPath('ctrader', 'fixtures');
const messages = readdirSync(folder)
  .filter((file) => file !== 'token.response.json')
  .flatMap((file) => {
    const fixture = JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')) as Record<string, Framed | undefined>;
    return [fixture.message, fixture.request, fixture.expected_reply]
      .filter((item): item is Framed => item !== undefined)
      .map((message) => [`${file} ${message.payloadType}`, message] as const);
  });

describe('cTrader protocol', () => {
  it('knows payload types by name and number', () => {
    expect(payloadTypeOf('ProtoOANewOrderReq')).toBe(2106);
    expect(payloadTypeOf('ProtoHeartbeatEvent')).toBe(51);
    expect(messageName(2126)).toBe('ProtoOAExecutionEvent');
    expect(messageName(9999)).toBe('');
  });

  it.each(messages)('%s round-trips through protobuf', (_name, message) => {
    const name = messageName(message.payloadType);
    expect(name).not.toBe('');
    const bytes = encodeMessage(name, message.payload, message.clientMsgId);
    const decoded = decodeMessage(bytes);
    expect(decoded).toEqual({
      payloadType: message.payloadType,
      name,
      payload: message.payload,
      ...(message.clientMsgId ? { clientMsgId: message.clientMsgId } : {}),
    });
  });

  it('refuses a payload missing a required field or with a wrong type', () => {
    expect(
      invalidPayload('ProtoOANewOrderReq', { ctidTraderAccountId: 1, symbolId: 1, orderType: 1, tradeSide: 1 }),
    ).toMatch(/volume/);
    expect(
      invalidPayload('ProtoOANewOrderReq', {
        ctidTraderAccountId: 1,
        symbolId: 1,
        orderType: 99,
        tradeSide: 1,
        volume: 1,
      }),
    ).toMatch(/orderType/);
    expect(() => encodeMessage('ProtoOAAccountAuthReq', { ctidTraderAccountId: 1 })).toThrow(/accessToken/);
  });
});
