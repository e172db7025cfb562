// The sign-in page's first load as a browser makes it: Chromium (playwright-core) with an empty
// cache opens /signin with `Accept-Encoding: br, gzip` and waits until the network is idle; every
// response's bytes on the wire (headers and compressed body, CDP encodedDataLength) are summed,
// static files and API calls apart. CHROMIUM_PATH, else /usr/bin/chromium.
import { chromium } from 'playwright-core';

export interface FirstLoad {
  path: string;
  /** Everything transferred: HTML, scripts, styles, icon and the app's first API calls. */
  totalBytes: number;
  /** Of which static files (the build), headers included. */
  staticBytes: number;
  /** Those files' bodies alone, as sent (compressed). */
  staticBodyBytes: number;
  /** Those static files uncompressed (decoded body bytes). */
  staticDecodedBytes: number;
  requests: number;
  /** Content-Encoding of the static files, by count ('identity' when none). */
  encodings: Record<string, number>;
  /** Each response: path, bytes on the wire, decoded bytes. */
  files: Array<{ path: string; bytes: number; decodedBytes: number }>;
}

interface Finished {
  url: string;
  /** Bytes on the wire: headers and body. */
  encoded: number;
  /** The body as sent (Content-Length). */
  body: number;
  decoded: number;
  encoding: string;
}

export async function measureFirstLoad(baseUrl: string, path = '/signin'): Promise<FirstLoad> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'br, gzip' } });
    const responses = new Map<string, { url: string; encoding: string; body: number; decoded: number }>();
    const finished: Finished[] = [];
    cdp.on('Network.responseReceived', (event) => {
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      responses.set(event.requestId, {
        url: event.response.url,
        encoding: String(headers['content-encoding'] ?? 'identity'),
        body: Number(headers['content-length'] ?? 0),
        decoded: 0,
      });
    });
    cdp.on('Network.dataReceived', (event) => {
      const response = responses.get(event.requestId);
      if (response) response.decoded += event.dataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const response = responses.get(event.requestId);
      if (response) finished.push({ ...response, encoded: event.encodedDataLength });
    });
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
    const isStatic = (url: string) => !/\/(graphql|api\/)/.test(new URL(url).pathname);
    const statics = finished.filter((f) => isStatic(f.url));
    const encodings: Record<string, number> = {};
    for (const f of statics) encodings[f.encoding] = (encodings[f.encoding] ?? 0) + 1;
    return {
      path,
      totalBytes: finished.reduce((sum, f) => sum + f.encoded, 0),
      staticBytes: statics.reduce((sum, f) => sum + f.encoded, 0),
      staticBodyBytes: statics.reduce((sum, f) => sum + f.body, 0),
      staticDecodedBytes: statics.reduce((sum, f) => sum + f.decoded, 0),
      requests: finished.length,
      encodings,
      files: finished.map((f) => ({ path: new URL(f.url).pathname, bytes: f.encoded, decodedBytes: f.decoded })),
    };
  } finally {
    await browser.close();
  }
}
