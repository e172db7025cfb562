// Events as Stripe sends them: the fixtures' event envelope around a copy of the object, the body
// signed with the endpoint secret by the `stripe` package's own generateTestHeaderString, POSTed
// to the endpoint. Deliveries go out at once ('auto') or when a test flushes them ('manual').
import Stripe from 'stripe';
import { fromFixture, type StripeObject } from './fixtures.ts';
import { now, type Store } from './store.ts';

export interface Endpoint {
  url: string;
  secret: string;
}

/** What the fake's object makers share: the state, the event sender, the fake's own URL. */
export interface FakeParts {
  store: Store;
  webhooks: Webhooks;
  base: () => string;
}

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
}

/** A signed delivery of `body`: the header a Stripe endpoint receives. */
export function signedHeader(body: string, secret: string, timestamp = now()): string {
  return Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
}

export class Webhooks {
  endpoint: Endpoint | undefined;
  mode: 'auto' | 'manual' = 'auto';
  readonly events: StripeObject[] = [];
  readonly pending: StripeObject[] = [];
  readonly deliveries: Delivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly store: Store;
  private readonly apiVersion: string;

  constructor(store: Store, apiVersion: string) {
    this.store = store;
    this.apiVersion = apiVersion;
  }

  /** A new event about a copy of `object`; delivered now in 'auto' mode. */
  emit(type: string, object: StripeObject, previous?: Record<string, unknown>): StripeObject {
    const event = fromFixture('event.plan.created', {
      id: this.store.newId('event'),
      api_version: this.apiVersion,
      created: now(),
      type,
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      pending_webhooks: this.endpoint ? 1 : 0,
    });
    this.events.push(event);
    this.store.put(event);
    if (this.mode === 'auto' && this.endpoint) this.track(this.deliver(event));
    else this.pending.push(event);
    return event;
  }

  private track(delivery: Promise<unknown>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** Sends one event (again: a retry has a new timestamp, as Stripe's do); the endpoint's status. */
  async deliver(event: StripeObject, endpoint = this.endpoint): Promise<number> {
    if (!endpoint) throw new Error('the Stripe fake has no webhook endpoint');
    const body = JSON.stringify(event);
    let status = 0;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signedHeader(body, endpoint.secret),
        },
        body,
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0; // connection refused or reset: Stripe would retry later
    }
    this.deliveries.push({ eventId: event.id, type: String(event.type), status });
    return status;
  }

  /** Delivers the events held in 'manual' mode, in order. */
  async flush(): Promise<number[]> {
    const events = this.pending.splice(0);
    const statuses: number[] = [];
    for (const event of events) statuses.push(await this.deliver(event));
    return statuses;
  }

  /** Waits for the deliveries under way. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
