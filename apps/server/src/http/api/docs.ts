// /api/docs: the API reference, rendered by Scalar from /api/openapi.json. Its script is served
// from the package by the plugin (/api/docs/js/scalar.js), never from a CDN. The plugin's own page
// starts Scalar with an inline script; ours instead (answered by an onRequest hook) passes the
// settings as data attributes of a JSON block, which the script reads itself, so no inline
// script runs. The script injects one <style> element carrying the page's nonce (read from
// <meta property="csp-nonce">): this page's CSP allows styles with that nonce, nothing else.
import { randomBytes } from 'node:crypto';
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

function page(nonce: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta property="csp-nonce" content="${nonce}" />
    <title>Signal Router API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${OPENAPI_PATH}" data-configuration='${attribute(SETTINGS)}'></script>
    <script src="${DOCS_PATH}/js/scalar.js"></script>
  </body>
</html>`;
}

/** The page's own CSP: the app's policy, with styles by the nonce and fonts and images as Scalar draws them. */
export function docsPolicy(https: boolean, nonce: string): string {
  const directives = {
    ...cspDirectives(https),
    'style-src': ["'self'", `'nonce-${nonce}'`],
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
    const nonce = randomBytes(16).toString('base64');
    reply.header('content-security-policy', docsPolicy(https, nonce)).header('cache-control', 'no-store');
    await reply.type('text/html; charset=utf-8').send(page(nonce));
  };
  await app.register(async (scope) => {
    await scope.register(scalar, {
      routePrefix: DOCS_PATH,
      configuration: { url: OPENAPI_PATH },
      hooks: { onRequest: servePage },
    });
  });
}
