// Serves the built React app (apps/web/dist) with a fallback to index.html for client routes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const API_PREFIXES = ['/graphql', '/api/', '/hook/', '/healthz', '/readyz'];

export async function registerWebApp(app: FastifyInstance, dist = WEB_DIST): Promise<void> {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ dist }, 'web app not built: run `npm run build`');
    app.get('/', async (_req, reply) =>
      reply.type('text/plain').send('The web app is not built. Run `npm run build`, or `npm start` which builds it.'),
    );
    return;
  }
  await app.register(fastifyStatic, { root: dist, wildcard: false, index: false, maxAge: '1h', immutable: false });
  const html = fs.readFileSync(index, 'utf8');
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  app.get('/', async (_req, reply) => sendIndex(reply));
  app.get('/*', async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((p) => url.startsWith(p))) {
      return reply.status(404).send({ status: 'Error', message: `Not found: GET ${url}` });
    }
    const file = path.join(dist, path.normalize(url));
    if (file.startsWith(dist) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(dist, file));
    }
    // Missing asset files are 404s, client routes get the app.
    if (/\.[a-z0-9]{2,5}$/i.test(url)) return reply.status(404).send({ status: 'Error', message: 'Not found' });
    return sendIndex(reply);
  });
}
