// Test support: a validating mock of a broker's published API (Prism serving a file from
// ../shared/broker-specs/validating/) and its verdict on a wire request, read as that folder's
// README says: refused = 401, or a 4xx with a violation located in the request (sl-violations,
// or the 422 problem body's `validation` array).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const PRISM_BIN = resolve(REPO_ROOT, 'node_modules/.bin/prism');

/** ../shared/broker-specs beside the repository, as the project lays its trees out. */
const BROKER_SPECS = resolve(REPO_ROOT, '../shared/broker-specs');

/** A file or folder of ../shared/broker-specs (a broker's published examples); fails loudly when missing. */
export function brokerSpecsPath(...parts: string[]): string {
  const path = resolve(BROKER_SPECS, ...parts);
  if (!existsSync(path))
    throw new Error(`${path} is missing: the broker specs live in ../shared beside the repository`);
  return path;
}

/** The validating spec file; fails loudly where shared/ or Prism is missing (never a skipped check). */
export function validatingSpec(file: string): string {
  const path = brokerSpecsPath('validating', file);
  if (!existsSync(PRISM_BIN)) throw new Error(`${PRISM_BIN} is missing: run npm install`);
  return path;
}

export interface WireRequest {
  method: string;
  /** Path and query, e.g. /v2/orders?x=1. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PrismViolation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface PrismVerdict {
  accepted: boolean;
  status: number;
  violations: PrismViolation[];
}

export interface PrismMock {
  url: string;
  check(request: WireRequest): Promise<PrismVerdict>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((done, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`Prism did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening/i.test(output)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Violations a 422 problem body carries in its `validation` array (kraken: no sl-violations header);
 * they describe the request, so their location is read as starting with `request`.
 */
function bodyViolations(text: string): PrismViolation[] {
  const list = (JSON.parse(text) as { validation?: unknown }).validation;
  if (!Array.isArray(list)) return [];
  return (list as PrismViolation[]).map((violation) =>
    violation.location[0] === 'request' ? violation : { ...violation, location: ['request', ...violation.location] },
  );
}

export async function startPrismMock(specPath: string, timeoutMs = 45_000): Promise<PrismMock> {
  const port = await freePort();
  const child = spawn(PRISM_BIN, ['mock', '-h', '127.0.0.1', '-p', String(port), specPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForListening(child, timeoutMs);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async check(request) {
      const init: RequestInit = { method: request.method, headers: request.headers };
      if (request.body !== undefined && request.body !== '') init.body = request.body;
      const response = await fetch(url + request.url, init);
      const text = await response.text();
      const header = response.headers.get('sl-violations');
      const violations = header ? (JSON.parse(header) as PrismViolation[]) : [];
      if (response.status >= 400 && text.startsWith('{')) violations.push(...bodyViolations(text));
      const refused =
        response.status === 401 ||
        (response.status >= 400 && response.status < 500 && violations.some((v) => v.location[0] === 'request'));
      return { accepted: !refused, status: response.status, violations };
    },
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
