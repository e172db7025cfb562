// /api/docs: the API reference, rendered by Scalar from /api/openapi.json. Its script is served
// from the package by the plugin (/api/docs/js/scalar.js), never from a CDN. The plugin's own page
// starts Scalar with an inline script; ours instead (answered by an onRequest hook) passes the
// settings as data attributes of a JSON block, which the script reads itself, so scripts stay
// 'self' only, with no inline script and no eval (setup.js turns zod's `new Function` probe off,
// as the web app does). Scalar styles its elements with inline <style> elements and style
// attributes, so this page alone allows inline styles: styles, never scripts.
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cspDirectives } from '../security-headers.ts';
import { OPENAPI_PATH } from './openapi.ts';

export const DOCS_PATH = '/api/docs';

/** What the page asks of Scalar: nothing from another origin (fonts, proxy, telemetry). */
const SETTINGS = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
});

const attribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll("'", '&#39;');

function page(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>Signal Router API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${OPENAPI_PATH}" data-configuration='${attribute(SETTINGS)}'></script>
    <script src="${DOCS_PATH}/setup.js"></script>
    <script src="${DOCS_PATH}/js/scalar.js"></script>
  </body>
</html>`;
}

/** Before Scalar: zod (inside it) then never probes for `new Function`, which the policy forbids. */
const SETUP = 'globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };\n';

/** The page's own CSP: the app's policy, with inline styles, and fonts and images as Scalar draws them. */
export function docsPolicy(https: boolean): string {
  const directives = {
    ...cspDirectives(https),
    'style-src': ["'self'", "'unsafe-inline'"],
    'font-src': ["'self'", 'data:'],
    'img-src': ["'self'", 'data:', 'blob:'],
  };
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

export async function registerDocs(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https:');
  const servePage = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const path = req.url.split('?')[0];
    if (path !== DOCS_PATH && path !== `${DOCS_PATH}/`) return;
    reply.header('content-security-policy', docsPolicy(https)).header('cache-control', 'no-cache');
    await reply.type('text/html; charset=utf-8').send(page());
  };
  app.get(`${DOCS_PATH}/setup.js`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(SETUP),
  );
  await app.register(async (scope) => {
    await scope.register(scalar, {
      routePrefix: DOCS_PATH,
      configuration: { url: OPENAPI_PATH },
      hooks: { onRequest: servePage },
    });
  });
}
