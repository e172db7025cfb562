// MetaApi's provisioning API in the protocol fake: the known-server search, the accounts of a
// token's owner, adding an account (transaction-id required and replayed, 202 while "broker
// settings detection" runs, E_SRV_NOT_FOUND / E_AUTH / E_RESOURCE_SLOTS as MetaApi words them),
// and deployment: a deployed account connects after a number of looks at it.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MT_ACCOUNTS, searchServers, similarServers } from './fake-data.ts';
import { NEW_ACCOUNT_SCHEMA } from './fake-schema.ts';
import { createTerminal, type FakeTerminal } from './fake-terminal.ts';

export interface FakeAccount {
  _id: string;
  name: string;
  login: string;
  server: string;
  platform: 'mt4' | 'mt5';
  type: string;
  region: string;
  state: string;
  connectionStatus: string;
  magic: number;
  reliability: string;
  baseCurrency: string;
  resourceSlots: number;
  tags: string[];
  userId: string;
}

export interface FakeProvisioningOptions {
  /** 202 answers before an account is added (MetaApi's broker settings detection). */
  detectionRetries?: number;
  /** Retry-After of those answers, in seconds. */
  retryAfterS?: number;
  /** Looks at a deploying account before it is deployed and connected. */
  connectAfterPolls?: number;
}

export interface ProvisioningState {
  accounts: Map<string, FakeAccount & { pollsLeft: number }>;
  terminals: Map<string, FakeTerminal>;
  /** Token → the MetaApi user it belongs to. */
  users: Map<string, string>;
  nextTicket: () => string;
}

export const metaApiError = (reply: FastifyReply, status: number, error: string, message: string, extra = {}) =>
  reply.code(status).send({ id: status === 400 ? 3 : 1, error, message, ...extra });

export const ownerOf = (state: ProvisioningState, request: FastifyRequest) =>
  state.users.get(String(request.headers['auth-token'])) ?? '';

/** The account of this id, if the caller's token owns it; else MetaApi's 404 is sent. */
export function ownedAccount(state: ProvisioningState, request: FastifyRequest, reply: FastifyReply) {
  const { id } = request.params as { id: string };
  const account = state.accounts.get(id);
  if (account && account.userId === ownerOf(state, request)) return account;
  metaApiError(reply, 404, 'NotFoundError', `Trading account with id ${id} not found`);
  return undefined;
}

export function publicAccount(account: FakeAccount & { pollsLeft?: number }): FakeAccount {
  const { pollsLeft: _hidden, ...visible } = account;
  return visible;
}

export function registerProvisioning(app: FastifyInstance, state: ProvisioningState, options: FakeProvisioningOptions) {
  const transactions = new Map<string, { waits: number; created?: { id: string; state: string } }>();

  app.get('/known-mt-servers/:version/search', async (request, reply) => {
    const { version } = request.params as { version: string };
    const { query } = request.query as { query?: string };
    if ((version !== '4' && version !== '5') || !query)
      return metaApiError(reply, 400, 'ValidationError', 'Validation failed: version 4 or 5 and a query are required');
    return searchServers(Number(version) as 4 | 5, query);
  });

  app.get('/users/current/accounts', async (request) =>
    [...state.accounts.values()].filter((a) => a.userId === ownerOf(state, request)).map(publicAccount),
  );

  app.get('/users/current/accounts/:id', async (request, reply) => {
    const account = ownedAccount(state, request, reply);
    if (!account) return reply;
    if (account.state === 'DEPLOYING' && account.pollsLeft-- <= 0)
      Object.assign(account, { state: 'DEPLOYED', connectionStatus: 'CONNECTED' });
    return publicAccount(account);
  });

  for (const action of ['deploy', 'undeploy'] as const) {
    app.post(`/users/current/accounts/:id/${action}`, async (request, reply) => {
      const account = ownedAccount(state, request, reply);
      if (!account) return reply;
      if (action === 'undeploy') Object.assign(account, { state: 'UNDEPLOYED', connectionStatus: 'DISCONNECTED' });
      else if (account.state !== 'DEPLOYED' && account.state !== 'DEPLOYING')
        Object.assign(account, { state: 'DEPLOYING', pollsLeft: options.connectAfterPolls ?? 1 });
      return reply.code(204).send();
    });
  }

  app.post(
    '/users/current/accounts',
    { schema: { body: NEW_ACCOUNT_SCHEMA }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return metaApiError(reply, 400, 'ValidationError', request.validationError.message);
      const transactionId = request.headers['transaction-id'];
      if (typeof transactionId !== 'string' || !/^[0-9a-zA-Z]{32}$/.test(transactionId))
        return metaApiError(reply, 400, 'ValidationError', 'transaction-id header must be 32 characters');
      const body = request.body as Record<string, string | number>;
      const owner = ownerOf(state, request);
      const transaction = transactions.get(`${owner}:${transactionId}`) ?? { waits: options.detectionRetries ?? 0 };
      transactions.set(`${owner}:${transactionId}`, transaction);
      if (transaction.created) return reply.code(201).send(transaction.created);

      const version = body.platform === 'mt4' ? 4 : 5;
      const server = String(body.server);
      if (!Object.values(searchServers(version, server)).some((names) => names.includes(server))) {
        const suggestions = similarServers(version, server);
        const names = Object.values(suggestions).flat().join(', ');
        return metaApiError(
          reply,
          400,
          'ValidationError',
          `.dat file for server ${server} not found, please check the server name or use a provisioning profile instead. Suggested server names: ${names}.`,
          { details: { code: 'E_SRV_NOT_FOUND', serversByBrokers: suggestions } },
        );
      }
      if (transaction.waits > 0) {
        transaction.waits--;
        const seconds = options.retryAfterS ?? 1;
        return reply
          .code(202)
          .header('retry-after', String(seconds))
          .send({
            message: `Automatic broker settings detection is in progress, please retry in ${seconds} seconds`,
            metadata: { recommendedRetryTime: new Date(Date.now() + seconds * 1000).toISOString() },
          });
      }
      const mt = MT_ACCOUNTS.find((item) => item.login === String(body.login) && item.server === server);
      const investor = body.password === mt?.investorPassword;
      if (!mt || (body.password !== mt.password && !investor))
        return metaApiError(
          reply,
          400,
          'ValidationError',
          'We failed to authenticate to your broker using credentials provided. Please check that your MetaTrader login, password and server name are correct.',
          { details: 'E_AUTH' },
        );
      const slots = Number(body.resourceSlots ?? 1);
      if (mt.slots && slots < mt.slots)
        return metaApiError(
          reply,
          400,
          'ValidationError',
          'Account resource slots should be equal or above estimated',
          {
            details: { code: 'E_RESOURCE_SLOTS', recommendedResourceSlots: mt.slots },
          },
        );
      // MetaApi keeps no uniqueness: another transaction adds the same login again.
      const id = state.accounts.has(mt.metaApiId) ? randomUUID() : mt.metaApiId;
      state.accounts.set(id, {
        _id: id,
        name: String(body.name),
        login: mt.login,
        server,
        platform: mt.platform,
        type: String(body.type ?? 'cloud-g2'),
        region: 'new-york',
        state: 'CREATED',
        connectionStatus: 'DISCONNECTED',
        magic: Number(body.magic),
        reliability: String(body.reliability ?? 'regular'),
        baseCurrency: mt.currency,
        resourceSlots: slots,
        tags: [],
        userId: owner,
        pollsLeft: 0,
      });
      state.terminals.set(id, createTerminal(mt, investor, state.nextTicket));
      transaction.created = { id, state: 'CREATED' };
      return reply.code(201).send(transaction.created);
    },
  );
}
