// A path of the API asked with a method it does not take (PUT /api/v1/accounts, PATCH
// /api/v1/orders/{orderId}) answers 405 with `Allow` (RFC 9110 §15.5.6), not 'Not found', which
// sent a developer hunting for a wrong id or path. A path no route has stays 404. Neither needs a
// token: the routes and their methods are the public OpenAPI document's.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from '../../errors.ts';

interface Route {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/api/v1/orders/:orderId` as a RegExp of its concrete paths (a parameter: one segment). */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** Call before the scope's routes are added: it learns them as they are (onRoute). */
export function answerWrongMethods(scope: FastifyInstance): void {
  const routes = new Map<string, Route>();
  scope.addHook('onRoute', (route: RouteOptions) => {
    const known = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) known.methods.add(method);
    routes.set(route.url, known);
  });
  scope.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = new Set([...routes.values()].flatMap((r) => (r.pattern.test(path) ? [...r.methods] : [])));
    if (allowed.size === 0) {
      return reply.status(404).send(new AppError('NOT_FOUND', `Not found: ${req.method} ${path}`).toBody());
    }
    const allow = [...allowed].sort().join(', ');
    return reply
      .status(405)
      .header('allow', allow)
      .send({ status: 'Error', message: `${req.method} is not allowed on ${path}; it takes ${allow}` });
  });
}
