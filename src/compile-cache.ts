// Node's compile cache for the server's worker threads (the index build, the request-record
// writer). Each worker is a Node instance of its own that strips the types of the modules it
// loads and compiles them again: with the cache (in the system's temporary directory, or
// NODE_COMPILE_CACHE) a worker after the first start loads them stripped and compiled, and holds
// much less memory (docs/performance.md, "Where the memory is"). Workers read the variable
// when they start, so it is set for them; this process's own modules were loaded before this runs.
import { enableCompileCache } from 'node:module';

export function enableWorkerCompileCache(): void {
  const { directory } = enableCompileCache();
  if (directory && process.env['NODE_COMPILE_CACHE'] === undefined) process.env['NODE_COMPILE_CACHE'] = directory;
}
