// A TCP proxy in front of the test server whose connections a test can cut: `drop()` ends every
// open connection (the live stream among them) and refuses new ones until `restore()`, as a lost
// network would. Pages opened on `url` go through it.
import net from 'node:net';

export interface DropProxy {
  url: string;
  drop(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startDropProxy(target: string): Promise<DropProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  const cut = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    drop() {
      down = true;
      cut();
    },
    restore() {
      down = false;
    },
    close() {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
