// The Node.js flags the API server runs with: `npm start` (package.json), the Dockerfile, and
// the bench and the soak, which measure it (test/main/server-flags.test.ts checks they agree).
//
// --max-semi-space-size=4: V8's young generation grows to 3 × 16 MiB by default under load; at
// 4 MiB the server's RSS at 130,000 schools stays at 256 MiB under the bench's load instead of
// 413 MiB, with the same throughput (2,662 against 2,635 searches/s) and event-loop delay, as
// its young objects (one request's) are short-lived: a smaller nursery only collects them sooner.
// On the real seed 6 or 8 MiB cost a search ~8 % less of the event loop side by side (fewer
// scavenges, fewer requests in flight promoted), but the bench's lifetime peak was 278–284 MiB
// against 268–269 MiB at 4, within 2 MB of its 300 MB target (docs/performance.md, Run L).
//
// --heap-growing-percent=25: after a full collection V8 lets the old generation grow by a factor
// it picks between 1.1 and 4 before the next one. At 4, the requests in flight that a small
// nursery promotes pile up as garbage: in 2 of 10 bench runs the heap reached 120–150 MiB and RSS
// 355 MiB (against 240–280 MiB otherwise). A fixed 1.5 bounds it; over six alternating runs
// with and without the flag, RSS peaks were 273–278 MB against 269–277 MB and searches/s the same
// (0.42–0.47 of the health route against 0.39–0.44): the extra full collections mark ~50 MiB
// concurrently, every few seconds. On the real seed (149,311 schools) the lifetime peak after
// 21,696 distinct searches, the mix and the logins was still 280–319 MB at 1.5, set by the heap
// (88–99 MiB under the mix with logins); at 1.25 it was 270, 286 and 295 MB in three runs, the
// heap at 74–75 MiB, searches/s no lower (0.465, 0.214 and 0.431 of the health route, against
// 0.224 in a run at 1.5 back to back; the machine is shared with others).
//
// --v8-pool-size=2: V8's background threads (parallel scavenges, concurrent marking, compiling)
// are 4 by default whatever the machine; on the 2 vCPUs the API is sized for, 4 of them, the
// record writer's thread and the event loop contend for two CPUs, and the event loop waits for
// the helpers at every parallel scavenge. At 2, side by side on the real seed (two runs of 8 and
// 10 rounds): 0.940 and 0.881 of the event loop's CPU per search, 0.882 and 0.797 of the
// process's, the mix's p99 0.701 and 0.697, RSS the same; at 1 the p99 was 0.786 but the RSS
// 26 MiB higher, concurrent marking falling behind (docs/performance.md, Run M).
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=25',
  '--v8-pool-size=2',
];
