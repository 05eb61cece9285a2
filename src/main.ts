// The API's entry (`npm start`, the Dockerfile): Node's compile cache first, then the process
// (process.ts). Node strips the types of every TypeScript module it loads and compiles it; with
// the cache on before they load (here, not in process.ts, whose imports are read before its first
// line runs), a restart reads this process's modules and its workers' already stripped and
// compiled, and opens its port sooner (docs/performance.md, "Start-up").
import { enableCompileCaches } from './compile-cache.ts';

if (import.meta.main) enableCompileCaches();
const { runProcess } = await import('./process.ts');
if (import.meta.main) await runProcess();
