// The words an option shows under a school's name: where it is and what kind of school it is,
// from the fields of a search result (the contract's School). A level and a type that say the
// same ("postsecondary") are shown once; a college's public or private control comes from its tags.
import type { School, SchoolRecord } from '../../../generated/types.gen.ts';

export type PickedSchool = School | SchoolRecord;

const LEVELS: Readonly<Record<string, string>> = {
  elementary: 'Elementary school',
  middle: 'Middle school',
  high: 'High school',
  other: 'K-12 school',
  postsecondary: 'Postsecondary',
};

function typeLabel(school: PickedSchool): string | undefined {
  const tags = school.tags ?? [];
  switch (school.type) {
    case 'public':
      return tags.includes('charter') ? 'Public charter' : 'Public';
    case 'private':
      return 'Private';
    case 'postsecondary':
      if (tags.includes('for_profit')) return 'Private for-profit';
      if (tags.includes('private_control')) return 'Private';
      if (tags.includes('public_control')) return 'Public';
      return school.level === 'postsecondary' ? undefined : 'Postsecondary';
    default:
      return undefined;
  }
}

/** "Cambridge, MA · Postsecondary · Private · 2.4 km": the facts the result has, in that order. */
export function schoolDetail(school: PickedSchool): string {
  const parts = [`${school.city}, ${school.stateprovince}`];
  const level = school.level === undefined ? undefined : LEVELS[school.level];
  if (level) parts.push(level);
  const type = typeLabel(school);
  if (type) parts.push(type);
  const distance = 'distance_km' in school ? school.distance_km : undefined;
  if (distance !== undefined) parts.push(`${distance < 10 ? distance.toFixed(1) : Math.round(distance)} km`);
  return parts.join(' · ');
}
