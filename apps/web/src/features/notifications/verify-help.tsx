// How a receiver checks our webhooks (Standard Webhooks 1.0); the full guide is docs/WEBHOOKS.md.
/** A whole receiver, as docs/WEBHOOKS.md shows it (verify-help.test.ts runs it): copied, it runs. */
export const NODE = `import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.WEBHOOK_SECRET); // whsec_…
const seen = new Set(); // use your database in production

const app = express();
app.post('/notify', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // throws on a bad signature or timestamp
  } catch {
    return res.sendStatus(400);
  }
  const id = req.headers['webhook-id'];
  if (!seen.has(id)) {
    seen.add(id);
    console.log(event.type, event.data);
  }
  res.sendStatus(204);
});
app.listen(8080);`;

/** The same receiver in Python (Flask), as docs/WEBHOOKS.md shows it. */
export const PYTHON = `import os

from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["WEBHOOK_SECRET"])  # whsec_…
seen = set()  # use your database in production
app = Flask(__name__)

@app.post("/notify")
def notify():
    try:
        event = wh.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "", 400
    webhook_id = request.headers["webhook-id"]
    if webhook_id not in seen:
        seen.add(webhook_id)
        print(event["type"], event["data"])
    return "", 204`;

export function VerifyHelp() {
  return (
    <details className="mb-3">
      <summary>How to verify webhooks</summary>
      <div className="small mt-2">
        <p>
          Webhooks follow <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: a POST with the JSON body{' '}
          <code>{'{type, timestamp, data}'}</code> and the headers <code>webhook-id</code> (the same on every retry of
          an event), <code>webhook-timestamp</code> (seconds) and <code>webhook-signature</code> (<code>v1,</code> +
          base64 HMAC-SHA256 of <code>id.timestamp.body</code> with the secret; after a rotation, two signatures for a
          day). Answer 2xx within 10 seconds; anything else is retried (by default after 5 s, 5 min, 30 min, 2 h, 5 h
          and 10 h). A webhook that fails for 3 days is disabled and you get an email.
        </p>
        <p className="mb-1">
          Node (<code>npm install express standardwebhooks</code>):
        </p>
        <pre className="bg-body-tertiary p-2 rounded">
          <code>{NODE}</code>
        </pre>
        <p className="mb-1">
          Python (<code>pip install flask standardwebhooks</code>):
        </p>
        <pre className="bg-body-tertiary p-2 rounded mb-0">
          <code>{PYTHON}</code>
        </pre>
      </div>
    </details>
  );
}
