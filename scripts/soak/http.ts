// The soak's HTTP client: node:http over one keep-alive agent (at most `connections` sockets), so
// the load is `connections` long-lived connections, as a pool of API clients would hold. No
// retries: a socket error or a timeout is reported as it is.
import { Agent, request } from 'node:http';

export interface Reply {
  readonly status: number;
  readonly body: string;
  readonly ms: number;
}

export interface Client {
  send(method: string, path: string, options?: { token?: string | undefined; json?: unknown }): Promise<Reply>;
  close(): void;
  /** Requests sent so far (answered or not). */
  sent(): number;
}

/** A request that gets no complete answer in this time is an error (and fails the soak). */
export const REQUEST_TIMEOUT_MS = 30_000;

export function createClient(baseUrl: string, connections: number): Client {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  let sent = 0;
  return {
    sent: () => sent,
    send(method, path, options = {}) {
      sent++;
      const body = options.json === undefined ? undefined : JSON.stringify(options.json);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const started = performance.now();
      return new Promise<Reply>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        });
        req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
