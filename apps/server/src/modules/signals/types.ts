// What the signal path answers.

/** SPEC §8: 201 with the order response, or 400/404/413/429 with {status, message}. */
export interface Answer {
  statusCode: number;
  body: Record<string, unknown>;
}
