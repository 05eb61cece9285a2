// Node's compile cache, for the process that turns it on and for its worker threads (the index
// build, the request-record writer). Node strips the types of each TypeScript module it loads and
// compiles it again at every start, in the process and in each worker (a Node instance of its
// own). With the cache (in the system's temporary directory, or NODE_COMPILE_CACHE), every start
// after the first loads them stripped and compiled: the API opens its port sooner, and a worker
// holds much less memory (docs/performance.md, "Where the memory is"). Only modules loaded after
// this runs are cached: the entry calls it before it imports the rest (src/main.ts). Workers read
// the variable when they start, so it is set for them.
import { enableCompileCache } from 'node:module';

export function enableCompileCaches(): void {
  const { directory } = enableCompileCache();
  if (directory && process.env['NODE_COMPILE_CACHE'] === undefined) process.env['NODE_COMPILE_CACHE'] = directory;
}
