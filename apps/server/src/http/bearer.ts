import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}
