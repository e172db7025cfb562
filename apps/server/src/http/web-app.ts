// Serves the built React app (apps/web/dist) with a fallback to index.html for client routes.
// Files are sent brotli- or gzip-compressed when the build wrote a .br/.gz beside them (the web
// app's precompress plugin) and the client accepts it. Hashed files under /assets/ never change:
// cached for a year; everything else (HTML, the SPA fallback, favicon) is revalidated each time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DOCUMENT_ONLY_HEADERS } from './security-headers.ts';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const API_PREFIXES = ['/graphql', '/api/', '/hook/', '/healthz', '/readyz', '/metrics'];
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const isHashedAsset = (dist: string, file: string) => path.relative(dist, file).startsWith(`assets${path.sep}`);

export async function registerWebApp(app: FastifyInstance, dist = WEB_DIST): Promise<void> {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ dist }, 'web app not built: run `npm run build`');
    app.get('/', async (_req, reply) =>
      reply.type('text/plain').send('The web app is not built. Run `npm run build`, or `npm start` which builds it.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    // The compressed variants are chosen by Accept-Encoding, not asked for by name.
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (reply, file) => {
      if (!isHashedAsset(dist, file)) return reply.header('cache-control', 'no-cache');
      for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
      // Never revalidated (a new build has new names): no validators, no ranges.
      reply.removeHeader('etag').removeHeader('last-modified').removeHeader('accept-ranges');
      return reply.header('cache-control', IMMUTABLE);
    },
  });
  const sendIndex = (reply: FastifyReply) => reply.sendFile('index.html');
  app.get('/', async (_req, reply) => sendIndex(reply));
  app.get('/*', async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((p) => url.startsWith(p))) {
      return reply.status(404).send({ status: 'Error', message: `Not found: GET ${url}` });
    }
    // A file the build wrote after the start (no route of its own yet).
    const file = path.join(dist, path.normalize(url));
    if (file.startsWith(dist) && !/\.(br|gz)$/.test(file) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(dist, file));
    }
    // Missing asset files are 404s, client routes get the app.
    if (/\.[a-z0-9]{2,5}$/i.test(url)) return reply.status(404).send({ status: 'Error', message: 'Not found' });
    // The broker sends its authorization popup back here: a document with its own opener policy
    // would be cut from the window that opened it, which waits for it to close.
    if (url.startsWith('/callback/')) reply.header('cross-origin-opener-policy', 'unsafe-none');
    return sendIndex(reply);
  });
}
