// SIGTERM on the real server (node src/main.ts as a process) under search load: it stops taking
// connections, lets what is in flight finish, closes the store and exits 0 within
// SHUTDOWN_TIMEOUT_MS; every request record a client was shown survives into the next start.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { demoLogin, historyIds, searchLoad, testScope } from '../support/processes.ts';

/** The documented default of SHUTDOWN_TIMEOUT_MS. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

const scope = testScope();
afterEach(() => scope.end());

/** A keep-alive HTTP client with one connection, which it reuses for as long as the server lets it. */
function keepAliveClient(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, headers: Record<string, string | number>, body?: string, cut = false) => {
    const req = request(new URL(path, baseUrl), { method, agent, headers });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
    });
    answered.catch(() => undefined);
    if (body !== undefined && cut) {
      req.once('continue', () => req.write(body.slice(0, 10)));
      req.flushHeaders();
    } else {
      req.end(body);
    }
    return { req, answered };
  };
  return {
    /**
     * A login whose body has not fully arrived: a request the server has accepted and must
     * finish. `finish()` sends the rest and resolves with the status.
     */
    async slowLogin() {
      const body = JSON.stringify({ email: 'demo@example.com', password: 'demo-password-123' });
      // "Expect: 100-continue": the server answers "100 Continue" once it has read the headers;
      // from then on the request is in flight.
      const headers = {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      };
      const { req, answered } = send('POST', '/v1/auth', headers, body, true);
      await new Promise<void>((resolve, reject) => {
        req.once('continue', resolve);
        answered.catch(reject);
      });
      return {
        answered,
        async finish() {
          req.end(body.slice(10));
          return (await answered).status;
        },
      };
    },
    /** Searches on the same connection until the server closes it; returns the tids received and any other status. */
    async searchUntilClosed(token: string): Promise<{ tids: string[]; statuses: number[] }> {
      const tids: string[] = [];
      const statuses: number[] = [];
      for (;;) {
        try {
          const r = await send('GET', '/v1/fetchSchoolSearch?query=harv', { authorization: `Bearer ${token}` })
            .answered;
          if (r.status === 200) tids.push((JSON.parse(r.body) as { apirequest: { tid: string } }).apirequest.tid);
          else statuses.push(r.status);
        } catch {
          return { tids, statuses };
        }
      }
    },
    close: () => agent.destroy(),
  };
}

function connectionRefused(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM', () => {
  test('when sent SIGTERM under search load, then it refuses new connections, finishes what is in flight with 200, closes the store and exits 0; every tid a client got is in the history after a restart', async () => {
    const dir = scope.tempDir('sigterm');
    const dbPath = join(dir.path, 'store.db');
    const server = await scope.serve(dbPath);
    const { client, token } = await demoLogin(server.baseUrl);

    const load = searchLoad(client, 8);
    // Under way (the machine may be busy with other test files), then the signal.
    const deadline = performance.now() + 15_000;
    while (load.tids.length < 20 && performance.now() < deadline) await sleep(20);
    expect(load.tids.length).toBeGreaterThanOrEqual(20);
    const keepAlive = keepAliveClient(server.baseUrl);
    const inFlight = await keepAlive.slowLogin();

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    await server.logged('shutting down');
    // Still running (the login holds it), but the listener is closed.
    expect(server.child.exitCode).toBeNull();
    expect(await connectionRefused(server.baseUrl)).toBe(true);
    expect(await inFlight.finish()).toBe(200);
    // A keep-alive client goes on sending on the connection it has: that must not keep the
    // server up until the deadline.
    const sticky = await keepAlive.searchUntilClosed(token);
    keepAlive.close();

    const { code, signal } = await server.exited;
    const shutdownMs = performance.now() - signalledAt;
    await load.stop();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(server.lines.map((l) => l['msg'])).toContain('stopped');
    // Every answer a client got was a 200; the rest were refused or cut before an answer.
    expect([...load.statuses, ...sticky.statuses]).toEqual([]);

    const again = await scope.serve(dbPath);
    const history = await historyIds((await demoLogin(again.baseUrl)).client);
    const received = [...load.tids, ...sticky.tids];
    expect(received.filter((tid) => !history.has(tid))).toEqual([]);
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  });

  test('when a request never finishes, then the server closes it at SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    const dir = scope.tempDir('sigterm-deadline');
    const server = await scope.serve(join(dir.path, 'store.db'), { SHUTDOWN_TIMEOUT_MS: '1000' });
    const keepAlive = keepAliveClient(server.baseUrl);
    const stuck = await keepAlive.slowLogin();

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    const shutdownMs = performance.now() - signalledAt;
    keepAlive.close();
    expect(code).toBe(0);
    expect(shutdownMs).toBeGreaterThanOrEqual(900);
    expect(shutdownMs).toBeLessThan(3000);
    expect(server.lines.map((l) => l['msg'])).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    await expect(stuck.answered).rejects.toThrow();
  });
});
