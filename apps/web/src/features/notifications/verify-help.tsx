// How a receiver checks our webhooks (Standard Webhooks 1.0); the full guide is docs/WEBHOOKS.md.
const NODE = `import { Webhook } from 'standardwebhooks'; // npm install standardwebhooks

const wh = new Webhook(process.env.WEBHOOK_SECRET); // the whsec_… secret

// Express: verify the raw body, before any JSON parsing.
app.post('/notify', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // throws on a bad signature or an old timestamp
  } catch {
    return res.sendStatus(400);
  }
  // event.type: 'order.rejected', …  event.data: its details.
  // A retry repeats req.headers['webhook-id']: skip ids you already handled.
  res.sendStatus(204);
});`;

const PYTHON = `from standardwebhooks.webhooks import Webhook  # pip install standardwebhooks

wh = Webhook(secret)  # the whsec_… secret
event = wh.verify(request.get_data(), request.headers)  # raises on a bad signature`;

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
        <pre className="bg-body-tertiary p-2 rounded">
          <code>{NODE}</code>
        </pre>
        <pre className="bg-body-tertiary p-2 rounded mb-0">
          <code>{PYTHON}</code>
        </pre>
      </div>
    </details>
  );
}
