// A broker's failure that reaches the error handler unmapped is answered by the one mapping
// (modules/connectors/broker-error.ts), never as our own failure's 500.
import { BrokerError } from '@router/brokers';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UNAVAILABLE_RETRY_AFTER_S } from '../errors.ts';
import { registerErrorHandler } from './error-handler.ts';

const app = Fastify();
const THROWN: Record<string, BrokerError> = {
  limited: new BrokerError('RateLimited', 'Acme', 'slow down', { retryAfter: '3' }),
  down: new BrokerError('BrokerUnavailable', 'Acme', 'no answer', { outcomeUnknown: true }),
  refused: new BrokerError('InsufficientFunds', 'Acme', 'insufficient buying power'),
  credentials: new BrokerError('AuthenticationError', 'Acme', 'token revoked'),
};
beforeAll(async () => {
  registerErrorHandler(app);
  app.get<{ Params: { name: string } }>('/throw/:name', async (req) => {
    throw THROWN[req.params.name];
  });
  await app.ready();
});
afterAll(() => app.close());

it('answers a BrokerError by its kind, with {status, message}', async () => {
  const answers = await Promise.all(
    Object.keys(THROWN).map(async (name) => {
      const res = await app.inject({ method: 'GET', url: `/throw/${name}` });
      return [name, res.statusCode, res.json(), res.headers['retry-after']];
    }),
  );
  expect(answers).toEqual([
    ['limited', 429, { status: 'Error', message: 'Acme: slow down' }, '3'],
    ['down', 503, { status: 'Error', message: 'Acme: no answer' }, String(UNAVAILABLE_RETRY_AFTER_S)],
    ['refused', 400, { status: 'ExecutionError', message: 'Acme: insufficient buying power' }, undefined],
    ['credentials', 400, { status: 'AuthenticationError', message: 'Acme: token revoked' }, undefined],
  ]);
});
