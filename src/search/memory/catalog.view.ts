// The schools of an index as the page shows them, read from the index's packed text
// (packed-catalog.ts: one UTF-8 buffer, TEXT_FIELDS fields per school, in the catalog's row
// order). Keeping the catalog there, off the JavaScript heap, instead of as 150,000 objects and
// 700,000 strings, halves the server's memory and keeps the garbage collector's pauses short. A few thousand recently shown schools are kept decoded.
import type { School, SchoolLocation } from '../../domain/ports.ts';
import { knownLocation } from '../../domain/school.location.ts';
import { unpackKind } from './kind-bits.ts';
import { ALIAS_SEPARATOR, LOCATION_SEPARATOR, STATE_LIST, TEXT_FIELDS, type IndexData } from './index-data.ts';

const DECODED = 4096;

export class CatalogView {
  readonly #d: IndexData;
  readonly #text: Buffer;
  readonly #decoded = new Map<number, School>();

  constructor(data: IndexData) {
    this.#d = data;
    this.#text = Buffer.from(data.text.buffer, data.text.byteOffset, data.text.byteLength);
  }

  school(doc: number): School {
    let school = this.#decoded.get(doc);
    if (school) return school;
    const imageUrl = this.#field(doc, 3);
    school = {
      id: this.#field(doc, 0),
      name: this.#field(doc, 1),
      city: this.#field(doc, 2),
      state: STATE_LIST[this.#d.docState[doc]!]!,
      imageUrl: imageUrl || null,
      ...this.#location(doc),
      ...unpackKind(this.#d.docKind[doc]!),
    };
    if (this.#decoded.size >= DECODED) this.#decoded.delete(this.#decoded.keys().next().value!);
    this.#decoded.set(doc, school);
    return school;
  }

  name(doc: number): string {
    return this.#field(doc, 1);
  }

  aliases(doc: number): string[] {
    const joined = this.#field(doc, 4);
    return joined ? joined.split(ALIAS_SEPARATOR) : [];
  }

  #location(doc: number): SchoolLocation {
    const packed = this.#field(doc, 5);
    const [address, postalCode] = packed ? packed.split(LOCATION_SEPARATOR) : [];
    const latitude = this.#d.docLat[doc]!;
    const longitude = this.#d.docLon[doc]!;
    return knownLocation({
      address: address || null,
      postalCode: postalCode || null,
      latitude: Number.isNaN(latitude) ? null : latitude,
      longitude: Number.isNaN(longitude) ? null : longitude,
    });
  }

  /** The text is in the catalog's row order (packed-catalog.ts): the document's row holds its fields. */
  #field(doc: number, field: number): string {
    const at = this.#d.order[doc]! * TEXT_FIELDS.length + field;
    return this.#text.toString('utf8', this.#d.textStart[at]!, this.#d.textStart[at + 1]!);
  }
}
