// The real HTTP layer (createApp: the validator, authentication, the limiters, the handlers, the
// error middleware) over the domain's services on the in-memory fakes: no store file, no argon2
// worth the name, no index to build. What the HTTP layer does can then be tested in the inner
// loop (`npm run test:fast`); the same operations on the real stores are test/api/.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createClient, type Client } from '../../generated/client/index.ts';
import { loadContract, type Contract } from '../../src/http/contract.ts';
import { createApp } from '../../src/http/app.ts';
import { RATE_LIMITS_OFF, type RateLimits } from '../../src/http/middleware/rate-limit.ts';
import { listen } from '../../src/http/server.ts';
import { fakeServices } from './fakes/services.ts';

export interface FakeApp extends Omit<ReturnType<typeof fakeServices>, 'signedIn'> {
  readonly baseUrl: string;
  client(headers?: Record<string, string>): Client;
  /** A user with a session: its e-mail, password and bearer token. */
  signedIn(email?: string): Promise<{ email: string; password: string; token: string; client: Client }>;
  close(): Promise<void>;
}

/** The contract, read once for every app of a test file (parsing it is most of an app's start). */
let contract: Contract | undefined;

export async function startFakeApp(options: { rateLimits?: Partial<RateLimits> } = {}): Promise<FakeApp> {
  const fakes = fakeServices();
  contract ??= loadContract();
  const app = createApp({
    ...fakes.services,
    contract,
    publicBaseUrl: 'http://images.test',
    validateResponses: true,
    logger: pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }),
    rateLimits: { ...RATE_LIMITS_OFF, ...options.rateLimits },
    corsOrigins: '*',
  });
  const logger = pino({ level: 'silent' });
  const server: Server = await listen(app, 0, '127.0.0.1', logger);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = (headers: Record<string, string> = {}) => createClient({ baseUrl, headers });
  let users = 0;
  return {
    ...fakes,
    baseUrl,
    client,
    async signedIn(email = `user${++users}@example.com`) {
      const password = 'correct-horse-battery';
      await fakes.services.auth.createUser(email, password);
      const token = (await fakes.services.auth.login(email, password)).value;
      return { email, password, token, client: client({ Authorization: `Bearer ${token}` }) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
