// A TCP proxy in front of a server (FerretDB) that a test can partition: while frozen, it
// forwards nothing either way and leaves every connection open, as a network that drops the
// packets does (no reset, no refusal: the client only hears silence). New connections are
// accepted and left silent too. Thawing forwards what was held and carries on.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's loopback port. */
  readonly port: number;
  /** `uri` with its host and port replaced by the proxy's. */
  via(uri: string): string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  /** What arrived while frozen, per destination, forwarded at thaw. */
  const held = new Map<Socket, Buffer[]>();
  const waiting: Socket[] = [];

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (frozen) held.set(to, [...(held.get(to) ?? []), chunk]);
      else to.write(chunk);
    });
  };
  const join = (client: Socket, early: Buffer[]) => {
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    for (const chunk of early) upstream.write(chunk);
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };

  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (frozen) {
      // Accepted, then silence: the handshake the client sends is held until thaw.
      const early: Buffer[] = [];
      client.on('data', (chunk: Buffer) => void early.push(chunk));
      held.set(client, early);
      waiting.push(client);
    } else join(client, []);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    via: (uri) => uri.replace(/^mongodb:\/\/[^/?]*/, `mongodb://127.0.0.1:${port}`),
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const client of waiting.splice(0)) {
        const early = held.get(client) ?? [];
        held.delete(client);
        client.removeAllListeners('data');
        join(client, early);
      }
      for (const [to, chunks] of held) for (const chunk of chunks) to.write(chunk);
      held.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
