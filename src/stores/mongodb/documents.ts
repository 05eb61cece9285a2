// The shape of each collection's documents. Ids are the domain's own (UUID strings), so a
// document is found by the id the API hands out without a second index.
import type { ObjectId } from 'mongodb';

export interface SchoolText {
  /** The pipelines' terms of this name (texts.ts), for Atlas Search. */
  readonly terms: string[];
  /** Every term a query word may equal: see grams.ts. Indexed by the text index. */
  readonly grams: string[];
  /** Letters and digits of this name: the denominator of the similarity score. */
  readonly length: number;
}

export interface SchoolDocument {
  _id: string;
  name: string;
  city: string;
  state: string;
  imageUrl: string | null;
  aliases: string[];
  /** 0–100: the static rank of the search core (src/domain/search/ranking.ts). */
  prominence: number;
  sortKey: string;
  /** The name first, then each alternative name: what the MongoDB pipelines search (texts.ts). */
  texts: SchoolText[];
}

/** One document: the catalog's version, bumped by every import that changes a school. */
export interface CatalogDocument {
  _id: 'schools';
  version: number;
}

export interface UserDocument {
  _id: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

export interface TokenDocument {
  _id: string;
  userId: string;
  digest: string;
  hint: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** When the token stopped working (revoked, else expires): the TTL index purges a day later. */
  deadAt: Date;
  /** Issue order: orders tokens created in the same millisecond, as the embedded store's rowid does. */
  seq: ObjectId;
}

export interface RequestDocument {
  _id: string;
  userId: string;
  requestMade: string;
  timeMade: Date;
  cost: number;
}

/** The text index of the $text pipeline (MONGODB_SEARCH=text). */
export const TEXT_INDEX = 'schools_text';

export const COLLECTIONS = {
  schools: 'schools',
  users: 'users',
  tokens: 'tokens',
  requests: 'requests',
  catalog: 'catalog',
} as const;
