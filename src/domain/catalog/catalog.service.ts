// The catalog read one school at a time (a school's record, its image), beside the search over it.
import { NotFoundError } from '../shared/errors.ts';
import type { School, SchoolRecord, SchoolStore } from './catalog.ports.ts';

export class CatalogService {
  readonly #schools: Pick<SchoolStore, 'findById' | 'findRecord'>;

  constructor(deps: { schools: Pick<SchoolStore, 'findById' | 'findRecord'> }) {
    this.#schools = deps.schools;
  }

  /** The school with this id (ids are lower-case hex; any case finds it); NotFoundError when there is none. */
  async school(id: string): Promise<School> {
    const school = await this.#schools.findById(id.toLowerCase());
    if (!school) throw new NotFoundError('There is no such school.');
    return school;
  }

  /** The school's whole record, as school() finds it; NotFoundError when there is none. */
  async record(id: string): Promise<SchoolRecord> {
    const record = await this.#schools.findRecord(id.toLowerCase());
    if (!record) throw new NotFoundError('There is no such school.');
    return record;
  }
}
