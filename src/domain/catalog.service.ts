// The catalog read one school at a time (a school's image), beside the search over it.
import { NotFoundError } from './errors.ts';
import type { School, SchoolStore } from './ports.ts';

export class CatalogService {
  readonly #schools: Pick<SchoolStore, 'findById'>;

  constructor(deps: { schools: Pick<SchoolStore, 'findById'> }) {
    this.#schools = deps.schools;
  }

  /** The school with this id (ids are lower-case hex; any case finds it); NotFoundError when there is none. */
  async school(id: string): Promise<School> {
    const school = await this.#schools.findById(id.toLowerCase());
    if (!school) throw new NotFoundError('There is no such school.');
    return school;
  }
}
