// Whether this process can serve: its store answers and its search engine is ready.
import type { Store } from './store.port.ts';
import type { SearchEngine } from './search/engine.port.ts';

export class HealthService {
  readonly #store: Pick<Store, 'kind' | 'ping'>;
  readonly #engine: Pick<SearchEngine, 'ready'>;

  constructor(deps: { store: Pick<Store, 'kind' | 'ping'>; engine: Pick<SearchEngine, 'ready'> }) {
    this.#store = deps.store;
    this.#engine = deps.engine;
  }

  /** Throws StoreUnavailableError while the store cannot answer or the engine is not ready (engine.port.ts, ready). */
  async readiness(): Promise<{ readonly store: string }> {
    await this.#store.ping();
    await this.#engine.ready?.();
    return { store: this.#store.kind };
  }
}
