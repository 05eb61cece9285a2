// The Node.js flags the API server runs with: `npm start` (package.json), the Dockerfile, and
// the bench and the soak, which measure it (test/main/server-flags.test.ts checks they agree).
// What each gives on the bench: docs/performance.md, "The server's Node flags"; the runs that
// chose them: docs/runs/performance.md, "The server's Node flags: what was measured".
//
// --max-semi-space-size=4: V8's young generation grows to 3 × 16 MiB by default under load. A
// request's objects are short-lived, so a smaller nursery only collects them sooner: the
// server's RSS under load is far lower at the same throughput and event-loop delay. A larger
// one (6 or 8 MiB: fewer scavenges, fewer requests in flight promoted) costs a search a little
// less of the event loop, but leaves the bench's lifetime peak too close to its 300 MB target.
//
// --heap-growing-percent=25: after a full collection V8 lets the old generation grow by a factor
// it picks between 1.1 and 4 before the next one. Near 4, the requests in flight that a small
// nursery promotes pile up as garbage, and in some runs the heap, then RSS, jumps. A fixed
// factor bounds it at no cost in throughput the bench can see (the extra full collections mark
// concurrently); 1.25 keeps the lifetime peak under the target where 1.5 did not.
//
// --v8-pool-size=2: V8's background threads (parallel scavenges, concurrent marking, compiling)
// are 4 by default whatever the machine; on the 2 vCPUs the API is sized for, 4 of them, the
// record writer's thread and the event loop contend for two CPUs, and the event loop waits for
// the helpers at every parallel scavenge. At 2 a search costs less CPU and its p99 is lower; at
// 1 concurrent marking falls behind and the heap grows.
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=25',
  '--v8-pool-size=2',
];
