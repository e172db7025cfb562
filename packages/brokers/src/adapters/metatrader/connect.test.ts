// Contract: connecting a MetaTrader account through MetaApi. Provisioning with the site's token
// (platform from the server search, transaction-id, 202 while MetaApi checks, deployment waited
// for within limits, resource slots, wrong servers and passwords), linking an account the user
// added at MetaApi with their own token (its expiry), and the server search for the connect form.
import { afterEach, describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { LINKED_ACCOUNT } from './fake.ts';
import { OPERATOR_TOKEN } from './fake-data.ts';
import { callsSince, DEMO, DEMO_ID, type MetaApiWorld, startWorld } from './test-support.ts';

let world: MetaApiWorld | undefined;
afterEach(() => world?.close());
async function start(...args: Parameters<typeof startWorld>) {
  world = await startWorld(...args);
  return world;
}
const posts = (fake: MetaApiWorld['fake']) =>
  fake.requests.filter((r) => r.method === 'POST' && r.url === '/users/current/accounts');

describe('provisioning an MT login with the site token', () => {
  it('adds the account for the platform the server is listed under, deploys it, and waits until it is connected', async () => {
    const { fake, broker, ctx } = await start({ connectAfterPolls: 2 });
    const session = await broker.connect(ctx, { credentials: DEMO });
    expect(session).toEqual({
      secrets: {
        metaApiId: DEMO_ID,
        region: 'new-york',
        platform: 'mt5',
        login: '1234567',
        server: 'ICMarketsSC-Demo',
      },
      accounts: [
        {
          id: '1234567@ICMarketsSC-Demo',
          name: 'MT5 1234567',
          dataTitle: '1234567',
          dataType: 'margin',
          dataCurrency: 'USD',
          demo: true,
        },
      ],
      branch: 'ICMarketsSC-Demo',
    });
    expect(callsSince(fake, 0)).toEqual([
      'GET /known-mt-servers/5/search',
      'GET /known-mt-servers/4/search',
      'POST /users/current/accounts',
      `GET /users/current/accounts/${DEMO_ID}`,
      `POST /users/current/accounts/${DEMO_ID}/deploy`,
      `GET /users/current/accounts/${DEMO_ID}`,
      `GET /users/current/accounts/${DEMO_ID}`,
      `GET /users/current/accounts/${DEMO_ID}`,
      `GET /users/current/accounts/${DEMO_ID}/account-information`,
    ]);
    const [create] = posts(fake);
    expect(create?.headers['auth-token']).toBe(OPERATOR_TOKEN);
    expect(create?.headers['transaction-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(create?.body ?? '')).toEqual({
      login: '1234567',
      password: 'master-pass',
      name: '1234567@ICMarketsSC-Demo',
      server: 'ICMarketsSC-Demo',
      platform: 'mt5',
      magic: 1000,
      type: 'cloud-g2',
      reliability: 'high',
    });
    expect(JSON.stringify(session)).not.toContain('master-pass');
  });

  it('connecting again with the same credentials repeats the transaction: the same account, not a second one', async () => {
    const { fake, broker, ctx } = await start();
    const first = await broker.connect(ctx, { credentials: DEMO });
    const again = await broker.connect(ctx, { credentials: DEMO });
    expect(again.secrets.metaApiId).toBe(first.secrets.metaApiId);
    expect(fake.accounts.size).toBe(2); // the linked account of another user, and this one
    const [a, b] = posts(fake).map((r) => r.headers['transaction-id']);
    expect(a).toBe(b);
  });

  it('reads an MT4 server from the search and adds the account as mt4', async () => {
    const { fake, broker, ctx } = await start();
    const session = await broker.connect(ctx, {
      credentials: { login: '7654321', password: 'mt4-pass', server: 'ICMarketsSC-Demo02' },
    });
    expect(session.secrets.platform).toBe('mt4');
    expect(posts(fake).map((r) => JSON.parse(r.body).platform)).toEqual(['mt4']);
  });

  it('repeats the request while MetaApi checks the account (202 Retry-After), with the same transaction-id', async () => {
    const { fake, broker, ctx } = await start({ detectionRetries: 2, retryAfterS: 0.02 });
    const session = await broker.connect(ctx, { credentials: DEMO });
    expect(session.secrets.metaApiId).toBe(DEMO_ID);
    const ids = posts(fake).map((r) => r.headers['transaction-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it('stops waiting at its limit and says to connect again; connecting again continues the same transaction', async () => {
    const { fake, broker, ctx } = await start({ detectionRetries: 1, retryAfterS: 60 });
    const error = await brokerFailure(broker.connect(ctx, { credentials: DEMO }));
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      message: 'MetaTrader: MetaApi is still checking the account with ICMarketsSC-Demo; connect again in about 60 s',
    });
    const session = await broker.connect(ctx, { credentials: DEMO });
    expect(session.secrets.metaApiId).toBe(DEMO_ID);
    expect(new Set(posts(fake).map((r) => r.headers['transaction-id'])).size).toBe(1);
  });

  it('gives up on a deployment that takes longer than its limit, and finds the account connected later', async () => {
    const slow = await start({ connectAfterPolls: 1_000 }, { waitMs: 60, firstPollMs: 10, maxPollMs: 10 });
    const error = await brokerFailure(slow.broker.connect(slow.ctx, { credentials: DEMO }));
    expect(error.kind).toBe('BrokerUnavailable');
    expect(error.message).toBe(
      'MetaTrader: MetaApi is still connecting the account to ICMarketsSC-Demo (deploying, disconnected); connect again in a minute',
    );
    const account = slow.fake.accounts.get(DEMO_ID);
    if (account) account.pollsLeft = 0;
    const session = await slow.broker.connect(slow.ctx, { credentials: DEMO });
    expect(session.secrets.metaApiId).toBe(DEMO_ID);
    expect(slow.fake.requests.filter((r) => r.url.endsWith('/deploy'))).toHaveLength(1);
  });

  it('says the account is deploying when its limit passes right after asking MetaApi to deploy it', async () => {
    // A busy machine or a slow MetaApi: the limit is gone by the time the deploy is answered.
    const { fake, broker, ctx } = await start(
      { connectAfterPolls: 1_000 },
      { waitMs: 0, firstPollMs: 10, maxPollMs: 10 },
    );
    const error = await brokerFailure(broker.connect(ctx, { credentials: DEMO }));
    expect(error.message).toBe(
      'MetaTrader: MetaApi is still connecting the account to ICMarketsSC-Demo (deploying, disconnected); connect again in a minute',
    );
    expect(fake.requests.filter((r) => r.url.endsWith('/deploy'))).toHaveLength(1);
  });

  it('asks again with the resource slots MetaApi recommends (E_RESOURCE_SLOTS)', async () => {
    const { fake, broker, ctx } = await start();
    const session = await broker.connect(ctx, {
      credentials: { login: '5550001', password: 'exness-pass', server: 'Exness-MT5Trial7' },
    });
    expect(session.accounts[0]?.id).toBe('5550001@Exness-MT5Trial7');
    expect(posts(fake).map((r) => JSON.parse(r.body).resourceSlots)).toEqual([undefined, 2]);
  });

  it('refuses a wrong password with MetaApi’s words (E_AUTH)', async () => {
    const { broker, ctx } = await start();
    const error = await brokerFailure(broker.connect(ctx, { credentials: { ...DEMO, password: 'wrong' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message:
        'MetaTrader: We failed to authenticate to your broker using credentials provided. Please check that your MetaTrader login, password and server name are correct.',
    });
  });

  it('refuses an investor password, which cannot trade, and stops the account it added', async () => {
    const { fake, broker, ctx } = await start();
    const error = await brokerFailure(broker.connect(ctx, { credentials: { ...DEMO, password: 'investor-pass' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'MetaTrader: this is the investor (read-only) password: trading needs the master password',
    });
    expect(fake.accounts.get(DEMO_ID)?.state).toBe('UNDEPLOYED');
  });

  it('tries both platforms for a server the search does not list, then shows MetaApi’s suggestions', async () => {
    const { fake, broker, ctx } = await start();
    const error = await brokerFailure(broker.connect(ctx, { credentials: { ...DEMO, server: 'ICMarkets-Demo' } }));
    expect(error.kind).toBe('InvalidOrder');
    expect(error.message).toBe(
      'MetaTrader: .dat file for server ICMarkets-Demo not found, please check the server name or use a provisioning profile instead. Suggested server names: ICMarketsSC-Demo, ICMarketsSC-MT5.',
    );
    expect(posts(fake).map((r) => JSON.parse(r.body).platform)).toEqual(['mt5', 'mt4']);
  });

  it('without the site token an MT login cannot be added: the message says how to link instead', async () => {
    const { broker, fake } = await start();
    const error = await brokerFailure(broker.connect({ baseUrl: fake.url }, { credentials: DEMO }));
    expect(error.kind).toBe('AuthenticationError');
    expect(error.message).toMatch(/^MetaTrader: this site has no MetaApi token \(METATRADER_CLIENT_SECRET\)/);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a login that is neither an MT account number nor a MetaApi account id', async () => {
    const { broker, ctx } = await start();
    const error = await brokerFailure(broker.connect(ctx, { credentials: { ...DEMO, login: 'trader@example.com' } }));
    expect(error.message).toBe('MetaTrader: the login is your MetaTrader account number, or a MetaApi account id');
  });
});

describe('linking an account the user added at MetaApi', () => {
  it('with its MetaApi id and the user’s token: no site token needed, the token kept sealed, its expiry read', async () => {
    const expiresAt = Date.parse('2030-01-02T03:04:05Z');
    const { fake, broker } = await start({ userTokenExpiresAt: expiresAt });
    const ctx = { baseUrl: fake.url };
    const session = await broker.connect(ctx, {
      credentials: { login: LINKED_ACCOUNT.metaApiId, password: fake.userToken, server: 'ftmo-demo' },
    });
    expect(session).toMatchObject({
      secrets: { metaApiId: LINKED_ACCOUNT.metaApiId, region: 'london', platform: 'mt5', token: fake.userToken },
      accounts: [{ id: '88012345@FTMO-Demo', dataCurrency: 'EUR', demo: false }],
      branch: 'FTMO-Demo',
      expiresAt,
    });
    expect(fake.requests.every((r) => r.headers['auth-token'] === fake.userToken)).toBe(true);
    expect(posts(fake)).toHaveLength(0);
  });

  it('deploys a linked account that was stopped', async () => {
    const { fake, broker } = await start();
    const account = fake.accounts.get(LINKED_ACCOUNT.metaApiId);
    if (account) Object.assign(account, { state: 'UNDEPLOYED', connectionStatus: 'DISCONNECTED' });
    const session = await broker.connect(
      { baseUrl: fake.url },
      { credentials: { login: LINKED_ACCOUNT.metaApiId, password: fake.userToken, server: 'FTMO-Demo' } },
    );
    expect(session.expiresAt).toBeUndefined();
    expect(fake.requests.some((r) => r.url === `/users/current/accounts/${LINKED_ACCOUNT.metaApiId}/deploy`)).toBe(
      true,
    );
  });

  it('refuses another user’s account id, a server that is not the account’s, and a token MetaApi does not know', async () => {
    const { fake, broker, ctx } = await start();
    await broker.connect(ctx, { credentials: DEMO }); // the site's account
    const linking = (login: string, password: string, server: string) =>
      brokerFailure(broker.connect({ baseUrl: fake.url }, { credentials: { login, password, server } }));
    expect(await linking(DEMO_ID, fake.userToken, 'ICMarketsSC-Demo')).toMatchObject({
      kind: 'AuthenticationError',
      message: `MetaTrader: no MetaApi account ${DEMO_ID} for this token`,
    });
    expect((await linking(LINKED_ACCOUNT.metaApiId, fake.userToken, 'FTMO-Server')).message).toBe(
      `MetaTrader: MetaApi account ${LINKED_ACCOUNT.metaApiId} is on server FTMO-Demo, not FTMO-Server`,
    );
    expect(await linking(LINKED_ACCOUNT.metaApiId, 'not-a-token', 'FTMO-Demo')).toMatchObject({
      kind: 'AuthenticationError',
      message: 'MetaTrader: Authorization token invalid',
    });
  });
});

describe('the server search of the connect form', () => {
  it('lists MT5 and MT4 servers with their broker, names starting with the search first, from a cache', async () => {
    const { fake, broker, ctx } = await start();
    const found = await broker.searchBranches(ctx, 'icmarketssc');
    expect(found).toEqual([
      { name: 'ICMarketsSC-Demo', broker: 'Raw Trading Ltd', platform: 'mt5' },
      { name: 'ICMarketsSC-MT5', broker: 'Raw Trading Ltd', platform: 'mt5' },
      { name: 'ICMarketsSC-Demo02', broker: 'Raw Trading Ltd', platform: 'mt4' },
      { name: 'ICMarketsSC-Live07', broker: 'Raw Trading Ltd', platform: 'mt4' },
    ]);
    expect(fake.requests.map((r) => r.url)).toEqual([
      '/known-mt-servers/5/search?query=icmarketssc',
      '/known-mt-servers/4/search?query=icmarketssc',
    ]);
    expect(await broker.searchBranches(ctx, 'ICMARKETSSC')).toEqual(found);
    expect(fake.requests).toHaveLength(2);
    expect((await broker.searchBranches(ctx, 'pepper')).map((row) => row.name)).toEqual([
      'Pepperstone-Demo01',
      'Pepperstone-Edge01',
    ]);
    expect(await broker.searchBranches(ctx, ' i ')).toEqual([]);
  });

  it('needs the site token', async () => {
    const { fake, broker } = await start();
    expect((await brokerFailure(broker.searchBranches({ baseUrl: fake.url }, 'ftmo'))).kind).toBe(
      'AuthenticationError',
    );
  });
});

describe('disconnecting (the connection deleted)', () => {
  it('stops the account the site added, and again without error once it is gone', async () => {
    const { fake, broker, ctx } = await start();
    const session = await broker.connect(ctx, { credentials: DEMO });
    expect(fake.accounts.get(DEMO_ID)?.state).toBe('DEPLOYED');
    await broker.disconnect(ctx, session);
    expect(fake.accounts.get(DEMO_ID)?.state).toBe('UNDEPLOYED');
    const undeploy = fake.requests.filter((r) => r.url === `/users/current/accounts/${DEMO_ID}/undeploy`);
    expect(undeploy.map((r) => [r.method, r.headers['auth-token']])).toEqual([['POST', OPERATOR_TOKEN]]);
    fake.accounts.delete(DEMO_ID);
    await broker.disconnect(ctx, session);
  });

  it('leaves an account the user linked with their own token as it is', async () => {
    const { fake, broker, ctx } = await start();
    const session = await broker.connect(
      { baseUrl: fake.url },
      { credentials: { login: LINKED_ACCOUNT.metaApiId, password: fake.userToken, server: 'FTMO-Demo' } },
    );
    const before = fake.requests.length;
    await broker.disconnect(ctx, session);
    expect(fake.requests).toHaveLength(before);
    expect(fake.accounts.get(LINKED_ACCOUNT.metaApiId)?.state).toBe('DEPLOYED');
  });
});
