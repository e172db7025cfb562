// One shared plant socket (connection.ts) against a scripted plant: a request whose caller's
// deadline passed leaves the socket to the next request, and that request's answer is not taken
// from the late answer (or a late Reject) of the one before; a forced logout makes it unusable.
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { type Connection, openConnection } from './connection.ts';
import { decodeFrame, encodeFrame, type RithmicFields } from './protocol.ts';

let server: WebSocketServer;
let connection: Connection | undefined;
afterEach(async () => {
  await connection?.close();
  await new Promise((resolve) => server.close(resolve));
});

/** A plant that answers each request as `script` says, given the request and the one before it. */
async function plant(script: (request: RithmicFields, earlier: RithmicFields | undefined) => RithmicFields[]) {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket) => {
    let earlier: RithmicFields | undefined;
    socket.on('message', (data: Buffer) => {
      const request = decodeFrame(new Uint8Array(data));
      for (const answer of script(request, earlier)) socket.send(encodeFrame(answer));
      earlier = request;
    });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const echo = (request: RithmicFields, fields: Record<string, unknown>): RithmicFields => ({
  template_id: request.template_id + 1,
  user_msg: request.user_msg,
  ...fields,
});

it.each([
  ['its late answer', (late: RithmicFields) => echo(late, { rp_code: ['0'], basket_id: 'late' })],
  [
    'its late Reject (75)',
    (late: RithmicFields) => ({ template_id: 75, user_msg: late.user_msg, rp_code: ['5', 'bad'] }),
  ],
])('after a request past its deadline, the next is not answered by %s', async (_name, lateAnswer) => {
  const url = await plant((request, earlier) => {
    // The first request is answered only when the next one comes, before that one's own answer.
    if (request.template_id === 320) return [];
    return [...(earlier ? [lateAnswer(earlier)] : []), echo(request, { rp_code: ['0'], basket_id: 'mine' })];
  });
  connection = await openConnection(url);
  const late = await failure(connection.request({ template_id: 320 }, { signal: AbortSignal.timeout(100) }));
  expect(late).toMatchObject({
    kind: 'BrokerUnavailable',
    message: 'Rithmic: no answer from Rithmic before the deadline',
  });
  const { last } = await connection.request({ template_id: 312 }, { mutating: true });
  expect(last.basket_id).toBe('mine');
  expect(connection.usable).toBe(true);
});

it('a Reject without a tag refuses the request in flight', async () => {
  const url = await plant(() => [{ template_id: 75, rp_code: ['5', 'malformed message'] }]);
  connection = await openConnection(url);
  expect(await failure(connection.request({ template_id: 312 }))).toMatchObject({
    kind: 'InvalidOrder',
    message: 'Rithmic: malformed message',
  });
});

it('a forced logout (77) fails the request in flight as unknown and leaves the socket unusable', async () => {
  const url = await plant(() => [{ template_id: 77 }]);
  connection = await openConnection(url);
  expect(await failure(connection.request({ template_id: 312 }, { mutating: true }))).toMatchObject({
    kind: 'BrokerUnavailable',
    outcomeUnknown: true,
  });
  expect(connection.usable).toBe(false);
});
