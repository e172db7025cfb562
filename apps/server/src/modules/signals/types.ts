// What the signal path answers.
import type { BrokerError } from '@router/brokers';

/** SPEC §8: 201 with the order response, or 400/404/413/429 with {status, message}. */
export interface Answer {
  statusCode: number;
  body: Record<string, unknown>;
  /**
   * The broker's failure a refusal answers (never sent, nor stored): the hook answers it 400 as
   * SPEC §8 says; the REST API by the one mapping of broker failures (429 for its rate limit, 503
   * for its outage), as its other routes do.
   */
  brokerError?: BrokerError;
}
