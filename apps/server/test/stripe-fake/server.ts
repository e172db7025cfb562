// A Stripe-compatible fake for the billing tests (issue 14 point 9; stripe-mock cannot be
// installed here, ../shared/stripe/README.md §6). Fastify on loopback, spoken to by the official
// `stripe` package through STRIPE_API_URL: form-encoded bodies, Bearer secret key, Stripe's error
// bodies, Idempotency-Key replay (same key and parameters: the first answer again, marked
// Idempotent-Replayed) and mismatch (idempotency_error), state for the objects billing touches,
// hosted pages a browser can use offline, and signed webhooks to one endpoint.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Charges } from './charges.ts';
import { Checkout, InvalidRequest } from './checkout.ts';
import { type Form, parseForm } from './form.ts';
import { checkoutPage, invoicePdf, portalPage } from './pages.ts';
import { registerResources } from './resources.ts';
import { NotFound, Store } from './store.ts';
import { Subscriptions } from './subscriptions.ts';
import { type Endpoint, Webhooks } from './webhooks.ts';

export const FAKE_SECRET_KEY = 'sk_test_fake_0123456789';
export const FAKE_API_VERSION = '2026-10-28.endive';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  form: Form;
  status: number;
}

export interface StripeFakeOptions {
  secretKey?: string;
  webhook?: Endpoint;
  /** 'manual': events wait for `webhooks.flush()`. */
  delivery?: 'auto' | 'manual';
}

export interface StripeFake {
  /** http://127.0.0.1:<port>: STRIPE_API_URL. */
  url: string;
  store: Store;
  webhooks: Webhooks;
  checkout: Checkout;
  subscriptions: Subscriptions;
  charges: Charges;
  requests: RecordedRequest[];
  /**
   * Holds back the answer to the next `method path` request (after `skip` of them pass): the
   * answer is made at once (the state Stripe had when asked) and sent when `release` is called;
   * `reached` resolves when the request has been answered, so a test can change Stripe's state
   * behind a reader's back.
   */
  hold(method: string, path: string, skip?: number): Hold;
  close(): Promise<void>;
}

export interface Hold {
  reached: Promise<void>;
  release(): void;
}

interface PendingHold {
  method: string;
  path: string;
  skip: number;
  reached: () => void;
  released: Promise<void>;
}

export type Handler = (form: Form, params: Record<string, string>) => unknown;

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra },
});

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const secretKey = options.secretKey ?? FAKE_SECRET_KEY;
  const app = Fastify({ logger: false });
  let base = '';
  const store = new Store();
  const webhooks = new Webhooks(store, FAKE_API_VERSION);
  webhooks.endpoint = options.webhook;
  webhooks.mode = options.delivery ?? 'auto';
  const parts = { store, webhooks, base: () => base };
  const checkout = new Checkout(parts);
  const subscriptions = new Subscriptions(parts);
  const charges = new Charges(parts);
  const requests: RecordedRequest[] = [];
  const replays = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const holds: PendingHold[] = [];
  const hold = (method: string, path: string, skip = 0): Hold => {
    let reached = () => {};
    let release = () => {};
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    holds.push({ method, path, skip, reached, released });
    return { reached: reachedPromise, release };
  };
  /** The hold waiting for this request, taken off the list. */
  const heldFor = (method: string, path: string) => {
    const index = holds.findIndex((h) => h.method === method && h.path === path);
    const found = holds[index];
    if (!found) return undefined;
    if (found.skip > 0) {
      found.skip -= 1;
      return undefined;
    }
    return holds.splice(index, 1)[0];
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/v1/') && req.headers.authorization !== `Bearer ${secretKey}`) {
      await reply.status(401).send(stripeError('invalid_request_error', 'Invalid API Key provided: sk_test_****'));
    }
  });

  const answer = async (req: FastifyRequest, reply: FastifyReply, handler: Handler) => {
    const key = req.headers['idempotency-key'] as string | undefined;
    const raw = typeof req.body === 'string' ? req.body : '';
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const form = parseForm(req.method === 'POST' ? raw : query);
    const record = (status: number) =>
      requests.push({
        method: req.method,
        path: req.url.split('?')[0] ?? '',
        idempotencyKey: key,
        stripeVersion: req.headers['stripe-version'] as string | undefined,
        form,
        status,
      });
    const contentType = String(req.headers['content-type'] ?? '');
    if (req.method === 'POST' && raw && !contentType.startsWith('application/x-www-form-urlencoded')) {
      record(400);
      return reply
        .status(400)
        .send(
          stripeError(
            'invalid_request_error',
            'Invalid request (check that your POST content type is application/x-www-form-urlencoded).',
          ),
        );
    }
    const fingerprint = `${req.method} ${req.url.split('?')[0]} ${raw}`;
    const replay = key && req.method === 'POST' ? replays.get(key) : undefined;
    if (replay) {
      if (replay.fingerprint !== fingerprint) {
        record(400);
        return reply
          .status(400)
          .send(
            stripeError(
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            ),
          );
      }
      record(replay.status);
      return reply.status(replay.status).header('idempotent-replayed', 'true').send(replay.body);
    }
    let status = 200;
    let body: unknown;
    try {
      body = handler(form, req.params as Record<string, string>);
    } catch (error) {
      if (error instanceof NotFound) {
        status = 404;
        body = stripeError('invalid_request_error', error.message, { code: 'resource_missing', param: 'id' });
      } else if (error instanceof InvalidRequest) {
        status = 400;
        body = stripeError('invalid_request_error', error.message, error.param ? { param: error.param } : {});
      } else throw error;
    }
    if (key && req.method === 'POST') replays.set(key, { fingerprint, status, body });
    record(status);
    const held = heldFor(req.method, req.url.split('?')[0] ?? '');
    if (held) {
      const frozen = structuredClone(body);
      held.reached();
      await held.released;
      return reply.status(status).send(frozen);
    }
    return reply.status(status).send(body);
  };

  const route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler) =>
    app.route({ method, url, handler: (req, reply) => answer(req, reply, handler) });
  registerResources(route, { store, checkout, subscriptions, charges, url: () => base });

  // Hosted pages (no API key: a browser opens them).
  app.get('/c/pay/:id', (req, reply) => {
    const session = store.get('checkout.session', (req.params as { id: string }).id);
    return reply.type('text/html').send(checkoutPage(session, store.lineItems.get(session.id) ?? []));
  });
  app.post('/c/pay/:id', (req, reply) => {
    const session = store.get('checkout.session', (req.params as { id: string }).id);
    const card = parseForm(String(req.body ?? '')).card;
    if (card === '4000000000000002') {
      return reply
        .type('text/html')
        .send(checkoutPage(session, store.lineItems.get(session.id) ?? [], 'Your card was declined.'));
    }
    checkout.complete(session.id);
    return reply.redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id), 303);
  });
  app.get('/p/session/:id', (req, reply) => {
    const portal = store.get('billing_portal.session', (req.params as { id: string }).id);
    const mine = store.all('subscription').filter((s) => s.customer === portal.customer);
    return reply.type('text/html').send(portalPage(portal, mine));
  });
  app.post('/p/session/:id', (req, reply) => {
    const portal = store.get('billing_portal.session', (req.params as { id: string }).id);
    const form = parseForm(String(req.body ?? ''));
    const subscription = store.get('subscription', String(form.subscription));
    if (subscription.customer === portal.customer && form.action === 'cancel')
      subscriptions.cancelAtPeriodEnd(subscription.id);
    return reply.redirect(`/p/session/${portal.id}`, 303);
  });
  app.get('/favicon.ico', (_req, reply) => reply.status(204).send());
  // Stripe's invoice_pdf link downloads the file.
  app.get('/invoice/:id/pdf', (req, reply) => {
    const invoice = store.get('invoice', (req.params as { id: string }).id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="Invoice-${String(invoice.number)}.pdf"`)
      .send(invoicePdf(invoice));
  });
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof NotFound) {
      return reply.status(404).send(stripeError('invalid_request_error', error.message, { code: 'resource_missing' }));
    }
    return reply.status(500).send(stripeError('api_error', error instanceof Error ? error.message : String(error)));
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send(
        stripeError('invalid_request_error', `Unrecognized request URL (${req.method}: ${req.url.split('?')[0]}).`),
      ),
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as import('node:net').AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    store,
    webhooks,
    checkout,
    subscriptions,
    charges,
    requests,
    hold,
    close: async () => {
      await webhooks.settled();
      await app.close();
    },
  };
}
