// The R | Protocol framing and the fake's own validation, byte for byte where the tags are
// documented (template_id = 154467): what the real plant refuses, the fake refuses too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FAKE_CREDENTIALS, type RithmicFake, startRithmicFake } from './fake.ts';
import { LOGIN_APP } from './plant.ts';
import { decodeFrame, encodeFrame, hasLengthPrefix, type RithmicFields } from './protocol.ts';

let fake: RithmicFake;
beforeAll(async () => {
  fake = await startRithmicFake();
});
afterAll(() => fake.close());

/** A raw client: sends frames, reads each answer in order. */
async function client() {
  const socket = new WebSocket(fake.baseUrl);
  socket.binaryType = 'arraybuffer';
  const inbox: RithmicFields[] = [];
  const waiting: Array<(fields: RithmicFields) => void> = [];
  const framing: boolean[] = [];
  socket.addEventListener('message', (event) => {
    const frame = new Uint8Array(event.data as ArrayBuffer);
    framing.push(hasLengthPrefix(frame));
    const fields = decodeFrame(frame);
    const next = waiting.shift();
    if (next) next(fields);
    else inbox.push(fields);
  });
  await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
  return {
    send: (frame: Uint8Array) => socket.send(frame),
    next: () =>
      new Promise<RithmicFields>((resolve) => {
        const queued = inbox.shift();
        if (queued) resolve(queued);
        else waiting.push(resolve);
      }),
    /** Whether each answer so far came with its length prefix. */
    framing,
    close: () => socket.close(),
  };
}

const login = (infra_type: number) =>
  encodeFrame({
    template_id: 10,
    user_msg: ['hello'],
    ...LOGIN_APP,
    user: FAKE_CREDENTIALS.user,
    password: FAKE_CREDENTIALS.password,
    system_name: FAKE_CREDENTIALS.systemName,
    infra_type,
  });

describe('framing', () => {
  it('is a 4-byte big-endian length, then the message with template_id under tag 154467', () => {
    // tag 154467, wire type 0 → varint 0x98 0xB6 0x4B; value 18
    expect([...encodeFrame({ template_id: 18 })]).toEqual([0, 0, 0, 4, 0x98, 0xb6, 0x4b, 18]);
    const order = { template_id: 312, user_tag: 'sig-1', quantity: 2, price: 6050.25, manual_or_auto: 2 };
    expect(decodeFrame(encodeFrame(order))).toEqual(order);
  });

  it('reads a bare message (no length prefix) as well, and refuses a frame whose length prefix is wrong', () => {
    const order = { template_id: 312, user_tag: 'sig-2', quantity: 1, manual_or_auto: 2 };
    const bare = encodeFrame(order, false);
    expect([...encodeFrame({ template_id: 18 }, false)]).toEqual([0x98, 0xb6, 0x4b, 18]);
    expect(decodeFrame(bare)).toEqual(order);
    const frame = encodeFrame({ template_id: 18 });
    frame[3] = 9;
    expect(() => decodeFrame(frame)).toThrow();
  });
});

describe('the fake plant', () => {
  it('answers an undecodable frame and a request before login with Reject (75)', async () => {
    const raw = await client();
    raw.send(new Uint8Array([0, 0, 0, 9, 1]));
    expect(await raw.next()).toEqual({ template_id: 75, rp_code: ['3', 'malformed message'] });
    raw.send(encodeFrame({ template_id: 302, user_msg: ['a'] }));
    expect(await raw.next()).toEqual({ template_id: 75, user_msg: ['a'], rp_code: ['3', 'not logged in'] });
    raw.close();
  });

  it('answers a bare message (WIRE.md: one message per frame) bare, a prefixed one prefixed', async () => {
    const raw = await client();
    raw.send(encodeFrame({ template_id: 302, user_msg: ['bare'] }, false));
    expect(await raw.next()).toEqual({ template_id: 75, user_msg: ['bare'], rp_code: ['3', 'not logged in'] });
    raw.send(encodeFrame({ template_id: 302, user_msg: ['prefixed'] }));
    expect(await raw.next()).toMatchObject({ template_id: 75, user_msg: ['prefixed'] });
    expect(raw.framing).toEqual([false, true]);
    raw.close();
  });

  it('refuses order requests on a session of another plant', async () => {
    const raw = await client();
    raw.send(login(1));
    expect(await raw.next()).toMatchObject({ template_id: 11, rp_code: ['0'] });
    raw.send(encodeFrame({ template_id: 300, user_msg: ['b'] }));
    expect(await raw.next()).toMatchObject({ template_id: 75, rp_code: ['3', 'not an order plant session'] });
    raw.close();
  });

  it('refuses a login missing its fields, and an order without manual_or_auto or with another route', async () => {
    const raw = await client();
    raw.send(encodeFrame({ template_id: 10, user_msg: ['c'], user: 'trader01', infra_type: 2 }));
    expect(await raw.next()).toMatchObject({ template_id: 11, rp_code: ['3', 'template_version is required'] });
    raw.send(login(2));
    expect(await raw.next()).toMatchObject({ template_id: 11, rp_code: ['0'], heartbeat_interval: 60 });
    const order = {
      template_id: 312,
      user_msg: ['d'],
      user_tag: 'sig-raw',
      fcm_id: 'DemoFCM',
      ib_id: 'DemoIB',
      account_id: 'DEMO-12345-01',
      symbol: 'ESH7',
      exchange: 'CME',
      quantity: 1,
      transaction_type: 1,
      duration: 1,
      price_type: 2,
      trade_route: 'simulator',
    };
    const before = fake.book.orders.length;
    raw.send(encodeFrame(order));
    expect(await raw.next()).toMatchObject({ template_id: 313, rp_code: ['3', 'manual_or_auto is required'] });
    raw.send(encodeFrame({ ...order, manual_or_auto: 2, trade_route: 'elsewhere' }));
    expect(await raw.next()).toMatchObject({ template_id: 313, rp_code: ['3', 'invalid trade route elsewhere'] });
    raw.send(encodeFrame({ ...order, manual_or_auto: 2, price_type: 1 }));
    expect(await raw.next()).toMatchObject({ template_id: 313, rp_code: ['3', 'price does not fit price_type'] });
    expect(fake.book.orders.length).toBe(before);
    raw.close();
  });
});
