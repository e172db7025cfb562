// Test support: Prism serving a validating spec (broker-specs/validating/) as a child process,
// and the verdict on a wire request replayed to it (validating/README.md "Reading the verdict").
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WireRequest } from './fake-server.ts';

/** ../shared/broker-specs beside the repository. */
export const BROKER_SPECS = fileURLToPath(new URL('../../../../../../shared/broker-specs/', import.meta.url));
export const VALIDATING_SPECS = join(BROKER_SPECS, 'validating');

export interface PrismMock {
  url: string;
  stop(): Promise<void>;
}

export interface Verdict {
  accepted: boolean;
  status: number;
  violations: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

export async function startPrism(specFile: string, timeoutMs = 20_000): Promise<PrismMock> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [prismBin(), 'mock', '-h', '127.0.0.1', '-p', String(port), specFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start within ${timeoutMs} ms`)), timeoutMs);
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}): ${output.slice(-500)}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding']);

/** Replays a request the adapter sent to the fake, byte for byte, to Prism. */
export async function verdictOf(prism: PrismMock, request: WireRequest): Promise<Verdict> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([key]) => !HOP_HEADERS.has(key)));
  const response = await fetch(prism.url + request.url, {
    method: request.method,
    headers,
    ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body: request.rawBody }),
  });
  const text = await response.text();
  const violations: string[] = [];
  const header = response.headers.get('sl-violations');
  const fromHeader: unknown = header ? JSON.parse(header) : [];
  const fromBody: unknown =
    response.status >= 400 && text.startsWith('{') ? (JSON.parse(text) as { validation?: unknown }).validation : [];
  for (const list of [fromHeader, fromBody])
    if (Array.isArray(list))
      for (const v of list as { location?: string[]; message?: string; severity?: string }[])
        if (
          v.location?.[0] === 'request' ||
          v.location?.[0] === 'body' ||
          v.location?.[0] === 'query' ||
          v.location?.[0] === 'header'
        )
          if (v.severity !== 'Warning') violations.push(`${v.location.join('.')}: ${v.message ?? ''}`);
  const rejected =
    response.status === 401 || (response.status >= 400 && response.status < 500 && violations.length > 0);
  return { accepted: !rejected, status: response.status, violations };
}
