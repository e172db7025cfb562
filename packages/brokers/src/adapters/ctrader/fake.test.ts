// The protocol fake answers Spotware's published examples (broker-specs/ctrader/fixtures) as
// cTrader does, in JSON text frames (port 5036's form) and protobuf binary frames (5035's), and
// refuses what cTrader refuses: frames the schema rejects, requests out of authentication order.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { openConnection } from './connection.ts';
import { type CtraderFake, startCtraderFake } from './fake.ts';
import { decodeMessage, encodeMessage, type WireMessage } from './protocol.ts';

interface Framed {
  clientMsgId?: string;
  payloadType: number;
  payload: Record<string, unknown>;
}

const published = (file: string) =>
  JSON.parse(readFileSync(brokerSpecsPath('ctrader', 'fixtures', file), 'utf8')) as {
    message: Framed;
    request?: Framed;
    expected_reply?: Framed;
  };

let fake: CtraderFake;
beforeAll(async () => {
  fake = await startCtraderFake();
});
afterAll(() => fake?.close());

/** A socket speaking JSON frames: `ask` sends one message and resolves with the answers to it. */
async function jsonSocket(path = '/') {
  const socket = new WebSocket(`${fake.baseUrl.replace(/^http/, 'ws')}${path}`);
  const received: Framed[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as Framed));
  await new Promise((resolve) => socket.once('open', resolve));
  const ask = async (message: Framed | string, answers = 1): Promise<Framed[]> => {
    const from = received.length;
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    await expect.poll(() => received.length - from).toBeGreaterThanOrEqual(answers);
    return received.slice(from, from + answers);
  };
  return { ask, close: () => socket.close() };
}

describe('cTrader fake, published examples', () => {
  it('authorises the application, lists the accounts and authorises one, exactly as published', async () => {
    const { ask, close } = await jsonSocket();
    try {
      const app = published('app-auth.request.json');
      expect(await ask(app.message)).toEqual([app.expected_reply]);
      const list = published('account-list.request.json');
      const [accounts] = await ask(list.message);
      expect(accounts).toEqual(published('account-list.response.json').message);
      const auth = published('account-auth.request.json');
      expect(await ask(auth.message)).toEqual([auth.expected_reply]);
      const reconcile = published('reconcile.response.json');
      expect(await ask(reconcile.request as Framed)).toEqual([reconcile.message]);
      const market = published('new-order.market.request.json').message;
      const [accepted, filled] = await ask(market, 2);
      const acceptedExample = published('execution-event.accepted.json').message;
      expect(accepted).toMatchObject({
        clientMsgId: market.clientMsgId,
        payloadType: 2126,
        payload: { executionType: 2, order: { orderType: 1, orderStatus: 1, clientOrderId: 'sig-20241124-0042' } },
      });
      expect(Object.keys(accepted?.payload ?? {})).toEqual(Object.keys(acceptedExample.payload));
      expect(filled).toMatchObject({
        payloadType: 2126,
        payload: { executionType: 3, order: { orderStatus: 2, executionPrice: 1.08512 }, deal: { dealStatus: 2 } },
      });
      expect(filled?.clientMsgId).toBeUndefined();
      const cancel = published('cancel-order.request.json').message;
      const [cancelled] = await ask(cancel);
      expect(cancelled).toMatchObject({
        clientMsgId: 'cancel-1',
        payload: { executionType: 5, order: { orderId: 68412399, orderStatus: 5 } },
      });
      const stopLimit = published('new-order.stop-limit.request.json').message;
      expect((await ask(stopLimit))[0]).toMatchObject({
        payload: { executionType: 2, order: { orderType: 6, stopPrice: 1.092 } },
      });
      // The published limit order expired in 2024: a good-till-date in the past is refused.
      const limit = published('new-order.limit.request.json').message;
      expect((await ask(limit))[0]).toMatchObject({ payloadType: 2132, payload: { errorCode: 'INVALID_REQUEST' } });
    } finally {
      close();
    }
  });

  it('refuses out of order and with wrong credentials, and frames the schema rejects', async () => {
    const { ask, close } = await jsonSocket();
    try {
      const auth = published('account-auth.request.json').message;
      expect((await ask(auth))[0]).toMatchObject({
        payloadType: 2142,
        payload: { errorCode: 'CH_CLIENT_NOT_AUTHENTICATED' },
      });
      const app = published('app-auth.request.json').message;
      const wrong = { ...app, payload: { ...app.payload, clientSecret: 'nope' } };
      expect((await ask(wrong))[0]).toMatchObject({ payload: { errorCode: 'CH_CLIENT_AUTH_FAILURE' } });
      await ask(app);
      const order = published('new-order.market.request.json').message;
      expect((await ask(order))[0]).toMatchObject({ payload: { errorCode: 'ACCOUNT_NOT_AUTHORIZED' } });
      const missing = { ...order, payload: { ...order.payload, volume: undefined } };
      expect((await ask(missing))[0]).toMatchObject({ payloadType: 50, payload: { errorCode: 'INVALID_REQUEST' } });
      expect((await ask('not json'))[0]).toMatchObject({ payloadType: 50 });
    } finally {
      close();
    }
  });

  it('speaks protobuf in binary frames and keeps live and demo apart', async () => {
    const socket = new WebSocket(fake.endpoints.live);
    const answers: WireMessage[] = [];
    socket.on('message', (data) => answers.push(decodeMessage(data as Buffer)));
    await new Promise((resolve) => socket.once('open', resolve));
    const send = async (name: string, payload: Record<string, unknown>) => {
      const from = answers.length;
      socket.send(encodeMessage(name, payload, `cm-${from}`));
      await expect.poll(() => answers.length).toBeGreaterThan(from);
      return answers[from];
    };
    try {
      expect(
        await send('ProtoOAApplicationAuthReq', { clientId: '34Rsd_T098asHkl', clientSecret: 'validClientSecret' }),
      ).toMatchObject({
        name: 'ProtoOAApplicationAuthRes',
        clientMsgId: 'cm-0',
      });
      const token = 'r7Hs2Wk9QpL0dXvY3mZb5nTc8aEfGh1J';
      expect(await send('ProtoOAAccountAuthReq', { ctidTraderAccountId: 44533070, accessToken: token })).toMatchObject({
        name: 'ProtoOAErrorRes',
        payload: { errorCode: 'CH_CTID_TRADER_ACCOUNT_NOT_FOUND' },
      });
      expect(await send('ProtoOAAccountAuthReq', { ctidTraderAccountId: 44533071, accessToken: token })).toMatchObject({
        name: 'ProtoOAAccountAuthRes',
      });
    } finally {
      socket.close();
    }
  });

  it('hears the client heartbeat when it has sent nothing for half the period', async () => {
    const connection = await openConnection(fake.endpoints.demo, undefined, 5_000, 200);
    try {
      const before = fake.heartbeats();
      await expect.poll(() => fake.heartbeats(), { timeout: 5_000 }).toBeGreaterThan(before);
    } finally {
      connection.close();
    }
  });
});
