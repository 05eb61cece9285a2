// The Node.js flags the API server runs with: `npm start` (package.json), the Dockerfile, and
// the bench and the soak, which measure it (test/main/server-flags.test.ts checks they agree).
//
// --max-semi-space-size=4: V8's young generation grows to 3 × 16 MiB by default under load; at
// 4 MiB the server's RSS at 130,000 schools stays at 256 MiB under the bench's load instead of
// 413 MiB, with the same throughput (2,662 against 2,635 searches/s) and event-loop delay, as
// its young objects (one request's) are short-lived: a smaller nursery only collects them sooner.
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
