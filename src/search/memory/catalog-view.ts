// The schools of an index as the page shows them, read from the index's packed text
// (packed-catalog.ts: one UTF-8 buffer, TEXT_FIELDS fields per school, in the catalog's row
// order). Keeping the catalog there, off the JavaScript heap, instead of as 150,000 objects and
// 700,000 strings, halves the server's memory and keeps the garbage collector's pauses short.
//
// A school is decoded each time it is shown, its whole row with one call: when the row is ASCII
// (all but ~2 % of the seed's rows), a field's byte offsets are its offsets in the string and each
// field is a slice of it; otherwise each field is decoded on its own. Nothing is kept decoded: a
// cache of 4,096 schools answered about a third of the lookups under the bench's search mix, and
// with decoding this cheap it cost more than it saved (what it held lived long enough to be
// promoted by the garbage collector, and every miss paid for its upkeep).
import type { School } from '../../domain/catalog/catalog.ports.ts';
import { type KindFields, setKind } from './kind-bits.ts';
import { ALIAS_SEPARATOR, LOCATION_SEPARATOR, STATE_LIST, TEXT_FIELDS, type IndexData } from './index-data.ts';

const F = TEXT_FIELDS.length;
const ID = 0;
const NAME = 1;
const CITY = 2;
const IMAGE_URL = 3;
const ALIASES = 4;
const LOCATION = 5;

type SchoolFields = { -readonly [K in keyof School]: School[K] } & KindFields;

export class CatalogView {
  readonly #d: IndexData;
  readonly #text: Buffer;

  constructor(data: IndexData) {
    this.#d = data;
    this.#text = Buffer.from(data.text.buffer, data.text.byteOffset, data.text.byteLength);
  }

  school(doc: number): School {
    const starts = this.#d.textStart;
    const at = this.#d.order[doc]! * F;
    const start = starts[at]!;
    const end = starts[at + F]!;
    const row = this.#text.toString('utf8', start, end);
    // As many UTF-16 units as bytes: every character is ASCII. UTF-8 spends two bytes or more on
    // any other, and the text is valid UTF-8 (TextEncoder's), so no byte decodes alone to U+FFFD.
    if (row.length === end - start) {
      const name = starts[at + NAME]! - start;
      const city = starts[at + CITY]! - start;
      const imageUrl = starts[at + IMAGE_URL]! - start;
      const aliases = starts[at + ALIASES]! - start;
      return this.#school(
        doc,
        row.slice(0, name),
        row.slice(name, city),
        row.slice(city, imageUrl),
        row.slice(imageUrl, aliases),
        // The location is the row's last field: it runs to the end of the row.
        row,
        starts[at + LOCATION]! - start,
      );
    }
    const location = this.#field(at + LOCATION);
    return this.#school(
      doc,
      this.#field(at + ID),
      this.#field(at + NAME),
      this.#field(at + CITY),
      this.#field(at + IMAGE_URL),
      location,
      0,
    );
  }

  id(doc: number): string {
    return this.#field(this.#d.order[doc]! * F + ID);
  }

  name(doc: number): string {
    return this.#field(this.#d.order[doc]! * F + NAME);
  }

  aliases(doc: number): string[] {
    const joined = this.#field(this.#d.order[doc]! * F + ALIASES);
    return joined ? joined.split(ALIAS_SEPARATOR) : [];
  }

  /**
   * The school, its fields added in School's order and the unknown ones left out: every school
   * with the same known fields has the same shape, and no object is made only to be spread.
   * The location is `text` from `from` to its end: address and postal code (index-data.ts), or
   * empty when neither is known; the coordinates are the index's numbers (NaN when unknown).
   */
  #school(doc: number, id: string, name: string, city: string, imageUrl: string, text: string, from: number): School {
    const school: SchoolFields = {
      id,
      name,
      city,
      state: STATE_LIST[this.#d.docState[doc]!]!,
      imageUrl: imageUrl || null,
    };
    const to = text.length;
    if (from < to) {
      const postalCode = next(text, from, to);
      if (postalCode > from) school.address = text.slice(from, postalCode);
      if (to > postalCode + 1) school.postalCode = text.slice(postalCode + 1, to);
    }
    const latitude = this.#d.docLat[doc]!;
    const longitude = this.#d.docLon[doc]!;
    if (!Number.isNaN(latitude) && !Number.isNaN(longitude)) {
      school.latitude = latitude;
      school.longitude = longitude;
    }
    setKind(school, this.#d.docKind[doc]!);
    return school;
  }

  /** Field `at` of the text (a row's first field times F plus the field's number). */
  #field(at: number): string {
    return this.#text.toString('utf8', this.#d.textStart[at]!, this.#d.textStart[at + 1]!);
  }
}

/** Where the location's next separator from `from` is, or `to` when there is none. */
function next(text: string, from: number, to: number): number {
  const at = from < to ? text.indexOf(LOCATION_SEPARATOR, from) : -1;
  return at < 0 ? to : at;
}
