// Issue 13, many API instances on one store: what one instance (or the command line) writes, the
// other acts on at once. A revoked token stops working on the other instance on its very next
// request; schools imported while both run are found on both within seconds.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  fetchMyData,
  fetchMyRequests,
  createPublishableKey,
  fetchSchoolSearch,
  revokeCurrentToken,
  revokeMyToken,
  rotateApiKey,
  updateApiKey,
} from '../../generated/sdk.gen.ts';
import { runCli } from '../support/cli.ts';
import { expectProblem } from '../support/problem.ts';
import { REPO } from '../support/processes.ts';
import { createUser, login, NO_LIMITS, sharedStores, timeUntil, usePair, type Instance } from '../support/instances.ts';

/** How soon an import must be searchable on every instance (SEARCH_REFRESH_MS is 1 s by default). */
const IMPORT_VISIBLE_WITHIN_MS = 5000;

const stores = await sharedStores();

describe.each(stores)('two API instances on %s: one store', (_name, prepare) => {
  const pair = usePair(prepare, NO_LIMITS);

  describe('revokeCurrentToken (DELETE /v1/auth)', () => {
    test('when a token is revoked through A, then B answers its very next request with 401 unauthorized', async (ctx) => {
      ctx.skip(typeof prepare === 'string', String(prepare));
      const user = await createUser(pair.store, 'logout');
      const { token } = await login(pair.a, user.email, user.password);
      // B has accepted the token before: whatever it remembers of it, it must not outlive the revocation.
      expect(
        (await fetchSchoolSearch({ client: pair.b.client(token), query: { query: 'harvard' } })).response?.status,
      ).toBe(200);

      expect((await revokeCurrentToken({ client: pair.a.client(token) })).response?.status).toBe(204);

      expectProblem(
        await fetchSchoolSearch({ client: pair.b.client(token), query: { query: 'harvard' } }),
        401,
        'unauthorized',
      );
      expectProblem(await fetchMyData({ client: pair.b.client(token) }), 401, 'unauthorized');
      // The search refused was not metered: B took the token as it remembered it, and the
      // record's commit found it revoked (AuthService.authenticateMetered).
      const again = await login(pair.b, user.email, user.password);
      const history = await fetchMyRequests({ client: pair.b.client(again.token) });
      expect(history.data?.requests.map((r) => r.trequestmade)).toStrictEqual(['search_schools:harvard']);
    });
  });

  describe('revokeMyToken (DELETE /v1/tokens/{tokenId})', () => {
    test("when another of the user's tokens is revoked through A, then B answers that token's very next request with 401, and the revoking token still works on B", async (ctx) => {
      ctx.skip(typeof prepare === 'string', String(prepare));
      const user = await createUser(pair.store, 'revoker');
      const laptop = await login(pair.b, user.email, user.password);
      const phone = await login(pair.a, user.email, user.password);
      expect((await fetchMyData({ client: pair.b.client(laptop.token) })).response?.status).toBe(200);

      const revoked = await revokeMyToken({ client: pair.a.client(phone.token), path: { tokenId: laptop.tokenId } });
      expect(revoked.response?.status).toBe(204);

      expectProblem(await fetchMyData({ client: pair.b.client(laptop.token) }), 401, 'unauthorized');
      expect((await fetchMyData({ client: pair.b.client(phone.token) })).response?.status).toBe(200);
    });
  });

  describe('publishable keys (issue 40)', () => {
    test('when a page key is re-scoped, rotated and revoked through A, then B applies each change to its very next request', async (ctx) => {
      ctx.skip(typeof prepare === 'string', String(prepare));
      const user = await createUser(pair.store, 'page-owner');
      const { token } = await login(pair.a, user.email, user.password);
      const page = 'https://www.example.org';
      const other = 'https://shop.example.org';
      const created = await createPublishableKey({
        client: pair.a.client(token),
        body: { name: 'school field', origins: [page, other], current_password: user.password },
      });
      expect(created.response?.status).toBe(201);
      const key = created.data!;
      const onB = (value: string, origin: string) =>
        fetch(`${pair.b.baseUrl}/v1/fetchSchoolSearch?query=harvard&key=${value}`, { headers: { Origin: origin } });
      // B has let the key in from both pages before: whatever it remembers must not outlive a change.
      expect((await onB(key.token, page)).status).toBe(200);
      expect((await onB(key.token, other)).status).toBe(200);

      const scoped = await updateApiKey({
        client: pair.a.client(token),
        path: { tokenId: key.token_id },
        body: { origins: [page] },
      });
      expect(scoped.response?.status).toBe(200);
      expect((await onB(key.token, other)).status).toBe(403);
      expect((await onB(key.token, page)).status).toBe(200);
      // And given back: B lets it in at once, though it remembers the key without it.
      const widened = await updateApiKey({
        client: pair.a.client(token),
        path: { tokenId: key.token_id },
        body: { origins: [page, other] },
      });
      expect(widened.response?.status).toBe(200);
      expect((await onB(key.token, other)).status).toBe(200);

      const rotated = await rotateApiKey({
        client: pair.a.client(token),
        path: { tokenId: key.token_id },
        body: { current_password: user.password },
      });
      expect(rotated.response?.status).toBe(200);
      expect((await onB(key.token, page)).status).toBe(401);
      expect((await onB(rotated.data!.token, page)).status).toBe(200);

      expect(
        (await revokeMyToken({ client: pair.a.client(token), path: { tokenId: rotated.data!.token_id } })).response
          ?.status,
      ).toBe(204);
      expect((await onB(rotated.data!.token, page)).status).toBe(401);
      // Only what was let in is in the owner's history: five searches, each with its key and page.
      const history = await fetchMyRequests({ client: pair.b.client(token) });
      expect(history.data?.requests.map((r) => r.origin)).toStrictEqual([page, other, page, other, page]);
    });
  });

  describe('school-search import while both run', () => {
    test(`when a file is imported into the store, then its schools are found on A and on B within ${IMPORT_VISIBLE_WITHIN_MS / 1000} s`, async (ctx) => {
      ctx.skip(typeof prepare === 'string', String(prepare));
      const user = await createUser(pair.store, 'importer');
      const { token } = await login(pair.a, user.email, user.password);
      // Université Laval (test/fixtures/schools.csv) is not among the seed's US colleges.
      const finds = async (instance: Instance) => {
        const r = await fetchSchoolSearch({ client: instance.client(token), query: { query: 'laval' } });
        if (r.response?.status !== 200) throw new Error(`search on ${instance.name} answered ${r.response?.status}`);
        return r.data!.requestresult.schools.some((s) => s.schoolname === 'Université Laval');
      };
      expect({ A: await finds(pair.a), B: await finds(pair.b) }).toEqual({ A: false, B: false });

      const imported = await runCli(['import', join(REPO, 'test/fixtures/schools.csv'), '--format', 'csv'], {
        env: pair.store.env,
      });
      expect(imported.stderr.split('\n').filter((l) => /error|fail/i.test(l))).toEqual([]);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toMatch(/inserted\s+[1-9]/);

      // Measured from the end of the import (its commit), polling both at once; given 3x the
      // bound before giving up, so that a slow refresh shows its time rather than a timeout.
      const [onA, onB] = await Promise.all(
        [pair.a, pair.b].map((instance) => timeUntil(() => finds(instance), 3 * IMPORT_VISIBLE_WITHIN_MS)),
      );
      expect({ A: onA !== undefined, B: onB !== undefined }).toEqual({ A: true, B: true });
      expect({
        A: onA! <= IMPORT_VISIBLE_WITHIN_MS,
        B: onB! <= IMPORT_VISIBLE_WITHIN_MS,
        ms: { A: Math.round(onA!), B: Math.round(onB!) },
      }).toMatchObject({
        A: true,
        B: true,
      });
    }, 60_000);
  });
});
