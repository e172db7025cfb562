// The yardstick: a bare Fastify route in its own process that only parses the JSON body and
// answers 201 (no lookup, no validation, no database). Our hook's figures divided by these give
// an overhead ratio that holds on a noisy machine. Prints its port on stdout.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/hook/:shortKey', async (req, reply) => {
  const body = req.body as { client_id?: string } | null;
  return reply.status(201).send({ id: body?.client_id ?? 'x', status: 'draft' });
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${new URL(address).port}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
