// /api/docs: the API reference, rendered by Scalar from /api/openapi.json, its script served from
// the package (never a CDN). The Scalar plugin's page starts it with an inline script; ours passes
// the settings as data attributes of a JSON block, which the script reads itself, so scripts stay
// 'self' with no inline script and no eval (setup.js turns zod's `new Function` probe off, as the
// web app does). Scalar styles its elements with inline <style> elements and style attributes,
// so this page alone allows inline styles: styles, never scripts. The plugin module holds the
// 5 MB bundle as a string (~33 MB of memory once parsed), so it loads with the first request for
// the script, not at start: a private Fastify instance runs the plugin once to hand it over.
import Fastify, { type FastifyInstance } from 'fastify';
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

let bundle: Promise<string> | undefined;

/** Scalar's standalone script, as the plugin serves it (loaded once, on first use). */
function scalarBundle(): Promise<string> {
  bundle ??= (async () => {
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    const holder = Fastify();
    await holder.register(scalar, { routePrefix: '/scalar', configuration: { url: OPENAPI_PATH } });
    const answer = await holder.inject({ url: '/scalar/js/scalar.js' });
    await holder.close();
    if (answer.statusCode !== 200) throw new Error(`the Scalar plugin answered ${answer.statusCode}`);
    return answer.body;
  })().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

export function registerDocs(app: FastifyInstance, publicUrl: string): void {
  const policy = docsPolicy(publicUrl.startsWith('https:'));
  const html = page();
  for (const url of [DOCS_PATH, `${DOCS_PATH}/`]) {
    app.get(url, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .header('content-security-policy', policy)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html),
    );
  }
  app.get(`${DOCS_PATH}/setup.js`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(SETUP),
  );
  app.get(`${DOCS_PATH}/js/scalar.js`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(await scalarBundle()),
  );
}
