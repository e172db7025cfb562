// The documentation's static response samples (SPEC §2, §8), shared by the page that shows them
// and the hook test that checks the hook answers as they say.
import { NO_SYMBOL } from '../errors.ts';
import type { OrderResponse } from '../types.ts';

/** The Success (201) sample body. */
export const SAMPLE_SUCCESS_RESPONSE = { id: '…', status: 'filled', status_description: '…', price: 123.45 } as const;

/** SPEC §8's sample 400 body: what a webhook answers an order without a symbol. */
export const SAMPLE_ERROR_RESPONSE = { status: 'ValidationError', message: NO_SYMBOL } as const;

/** The `status` of a 201 answer, as the docs list it: an order, a cancel, a test webhook's call. */
export const ANSWER_STATUSES = {
  order: ['accepted', 'filled'],
  cancel: ['canceled'],
  test: ['draft'],
} as const satisfies Record<string, readonly OrderResponse['status'][]>;
