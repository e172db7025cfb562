// The receiver the panel's "How to verify webhooks" shows (and docs/WEBHOOKS.md, the same text),
// run as a user would copy it: with the real `standardwebhooks` package and a stand-in for
// express, it takes a signed message, skips its retry, and refuses a forged one.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import docs from '../../../../../docs/WEBHOOKS.md?raw';
import { NODE, PYTHON } from './verify-help.tsx';

const block = (language: string) => new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``).exec(docs)?.[1];

type Handler = (
  req: { body: Buffer; headers: Record<string, string> },
  res: { sendStatus(code: number): void },
) => void;

/** Runs the snippet: its imports answered by `modules`, its routes kept. */
function runReceiver(snippet: string, secret: string) {
  const routes = new Map<string, Handler>();
  const logged: unknown[][] = [];
  const app = { post: (path: string, _parser: unknown, handler: Handler) => routes.set(path, handler), listen() {} };
  const express = Object.assign(() => app, { raw: (options: unknown) => options });
  const modules: Record<string, unknown> = { express, standardwebhooks: { Webhook } };
  const code = snippet
    .replace(
      /^import (\w+) from '([^']+)';$/gm,
      (_m, name: string, from: string) => `const ${name} = modules['${from}'];`,
    )
    .replace(
      /^import \{ ([^}]+) \} from '([^']+)';$/gm,
      (_m, names: string, from: string) => `const { ${names} } = modules['${from}'];`,
    );
  new Function('modules', 'process', 'console', code)(
    modules,
    { env: { WEBHOOK_SECRET: secret } },
    { log: (...args: unknown[]) => logged.push(args) },
  );
  const post = (body: string, headers: Record<string, string>) => {
    let status = 0;
    routes.get('/notify')?.({ body: Buffer.from(body), headers }, { sendStatus: (code) => (status = code) });
    return status;
  };
  return { post, logged };
}

/** A message as the server signs it (webhook-message.ts): id, this second, `{type, timestamp, data}`. */
function signed(secret: string, id: string, body: string) {
  const now = new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

describe('How to verify webhooks', () => {
  it('shows a receiver that runs as copied: it verifies a signed webhook, skips a retry, refuses a forgery', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const receiver = runReceiver(NODE, secret);
    const body = JSON.stringify({ type: 'order.rejected', timestamp: new Date().toISOString(), data: { price: null } });
    const headers = signed(secret, 'msg_1', body);

    expect(receiver.post(body, headers)).toBe(204);
    expect(receiver.logged).toEqual([['order.rejected', { price: null }]]);
    expect(receiver.post(body, signed(secret, 'msg_1', body))).toBe(204); // a retry: same webhook-id
    expect(receiver.logged).toHaveLength(1);
    expect(receiver.post(body.replace('null', '1'), headers)).toBe(400);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(receiver.post(body, signed(other, 'msg_2', body))).toBe(400);
  });

  it('shows the receivers of docs/WEBHOOKS.md, word for word', () => {
    expect(block('js')).toBe(NODE);
    expect(block('python')).toBe(PYTHON);
  });
});
