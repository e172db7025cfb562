// A method the API path does not take answers 405 with Allow, a path no route has 404: a developer
// who sends PUT or PATCH to a real resource learns the method is wrong, not the id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('/api/v1 methods', () => {
  it.each([
    ['PUT', '/api/v1/accounts', 'GET, HEAD'],
    ['POST', '/api/v1/accounts', 'GET, HEAD'],
    ['PATCH', '/api/v1/orders/0T2nXq7a4bC9dE1fG2hI', 'DELETE, GET, HEAD'],
    ['PUT', '/api/v1/accounts/a1g5bVAycVI3dFY0d1k4egpQQVBFUi0x/orders?limit=5', 'GET, HEAD, POST'],
    ['DELETE', '/api/v1/accounts/a1g5bVAycVI3dFY0d1k4egpQQVBFUi0x/positions', 'GET, HEAD'],
  ])('%s %s answers 405, Allow: %s', async (method, url, allow) => {
    const res = await t.app.inject({ method: method as 'PUT', url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    const path = url.split('?')[0];
    expect(res.json()).toEqual({ status: 'Error', message: `${method} is not allowed on ${path}; it takes ${allow}` });
  });

  it('answers 404 for a path no route has, whatever the method', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nope'],
      ['PUT', '/api/v1/accounts/x/y/z'],
      ['GET', '/api/v1/accounts/'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ status: 'Error', message: `Not found: ${method} ${url}` });
    }
  });
});
