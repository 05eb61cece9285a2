// Password hashes run on libuv's thread pool (argon2's native code, tens of milliseconds of CPU
// each). On Linux the pool's threads are given a lower CPU priority (nice +10) than the event
// loop, so that when logins and searches compete for the CPUs, the event loop (every request)
// goes first and a login waits a little longer: a burst of logins cannot slow searches down.
// Raising a thread's nice value needs no privilege. Elsewhere this does nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** libuv names its pool threads so (Node 22+). */
const POOL_THREAD = 'libuv-worker';

/** Lowers the priority of the thread pool's threads (they exist once the pool was first used); returns how many. */
export function lowerThreadPoolPriority(nice = 10): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== POOL_THREAD) continue;
      setPriority(Number(tid), nice);
      lowered++;
    } catch {
      // A thread that ended meanwhile, or a kernel that refuses: the priority stays as it was.
    }
  }
  return lowered;
}
