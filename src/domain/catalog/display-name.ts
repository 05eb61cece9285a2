// Display case for directory text published ALL CAPS.
//
// Why: about 57,000 school names reach the catalog ALL CAPS (whole states in the NCES CCD file,
// every private school in HIFLD), and so do the street addresses and cities of EDGE and HIFLD.
// Shouting names are hard to read and look broken next to the mixed-case ones, so they are shown
// in a careful title case. Text a source already publishes in mixed case is its owner's spelling
// ("DeKalb", "iLEAD", "McAllen") and is returned exactly as published.
//
// The rules, in the order they are tried on each word (a word is a run of letters, digits and
// apostrophes; everything else, spacing included, is kept byte for byte):
// - Text is ALL CAPS when it has at least one upper-case letter and no lower-case letter; digits,
//   punctuation and caseless scripts do not count. Anything else is returned unchanged.
// - Only the case of letters changes, never a character: `out.toLowerCase() === in.toLowerCase()`,
//   so search folding, sort keys and the stored value are unaffected. The output has lower-case
//   letters or is the same fixed text again, so the function is idempotent.
// - Words with digits keep their letters upper ("9A", "K12", "99W") except ordinal suffixes
//   ("21ST" → "21st"): room numbers and route letters are codes, ordinals are words.
// - Single letters stay upper: they are initials ("E A JONES", "J J A E P", "P.S.", "C/O"). The one
//   exception is the article "a" after a word that takes one ("SCHOOL FOR A NEW ERA"); in the data
//   a lone A after a name is almost always an initial ("JOHN A DUBISKI").
// - Small words (articles, conjunctions, short prepositions, and Spanish/French/Italian "de",
//   "del", "du", "da") are lower case except at the start of the text or of a part (after a colon,
//   an opening bracket, a slash or a spaced dash). "de"/"del"/"du" keep their capital after a
//   direction or place word ("WEST DE PERE"), and "la"/"las"/"los" are lower only after "de"/"del"
//   ("JOSE DE LA CRUZ"): elsewhere they start US place names ("LA PUENTE", "LOS ANGELES").
// - A curated list of acronyms with vowels stays upper (KIPP, STEM, YMCA, IDEA, ISD, BOCES, ...):
//   a list, because most such tokens are also words ("LEAD", "EPIC", "ACE"). "YES" only in "YES
//   PREP"; "IS" only next to a number or paired with a school code ("IS 61", "PS/IS 384", "HS-IS").
// - A word of two or more letters with no vowel (Y counts) is an acronym ("PS", "HS", "JHS",
//   "BVM", "NW", "MN") unless it is a known abbreviation, which is title-cased: St, Mt, Ft, Dr, Jr,
//   Sr, Ctr, Sch, Blvd, Rd, Ln, ... English words almost always have a vowel, so this is safe.
// - Roman numerals from a fixed set (II to XXIV) stay upper; "MIX", "DIV", "CIVIC" are words.
// - Mc names capitalise after "Mc" ("MCKINLEY" → "McKinley"); Mac names only from a list,
//   because most MAC- words are not ("MACON", "MACHIAS", "MACK").
// - Apostrophes: after a one-letter prefix the next part is capitalised ("O'BRIEN" → "O'Brien",
//   "D'IBERVILLE", "L'ANSE"); possessives and contractions are lower ("MARY'S", "DON'T").
// - Hyphenated parts are words of their own ("WINSTON-SALEM" → "Winston-Salem", "K-8", "PRE-K").
// - A word in brackets that spells the initials of the words before it is an acronym
//   ("THE ALTERNATIVE PROGRAM (TAP)"), and so is a word spelled by the bracketed words after it.
// - Everything else: first letter upper, the rest lower (Unicode default case mapping, not the
//   server's locale, so "ÉCOLE" → "École" everywhere and a Turkish locale cannot change "I").
// Addresses add: route prefixes and state codes before a number stay upper ("US 1", "FM 1960",
// "SR 50", "NC 126", "HC 40"), and "US" is always upper; "PO BOX" → "PO Box".
import { US_STATE_CODES, US_TERRITORY_CODES } from './states.ts';

/** The kind of text: addresses have route codes ("FM 1960", "US 41"); names and cities do not. */
export type DisplayKind = 'name' | 'city' | 'address';

/** ALL CAPS: at least one upper-case letter and no lower-case (or title-case) letter. */
export function isAllCaps(text: string): boolean {
  return /\p{Lu}/u.test(text) && !/[\p{Ll}\p{Lt}]/u.test(text);
}

/** A school name, shown in title case when published ALL CAPS, else exactly as published. */
export function displayName(text: string): string {
  return displayCase(text, 'name');
}

/** A city: the same rules as a name ("ST LOUIS" → "St Louis", "MCALLEN" → "McAllen"). */
export function displayCity(text: string): string {
  return displayCase(text, 'city');
}

/** A street address: the name rules plus route codes ("1000 NW 5TH ST" → "1000 NW 5th St"). */
export function displayAddress(text: string): string {
  return displayCase(text, 'address');
}

/** Title case for ALL-CAPS text; any text with a lower-case letter is returned unchanged. */
export function displayCase(text: string, kind: DisplayKind = 'name'): string {
  if (!isAllCaps(text)) return text;
  const tokens = tokenize(text);
  // A name that is one short word ("WPI", "VICC", "TAKS") is far likelier an acronym than a word.
  if (kind === 'name' && tokens.length === 1 && /^\p{L}{2,4}$/u.test(tokens[0]!.text)) return text;
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    out += token.before + caseWord(tokens, i, kind);
  }
  return out + (tokens.length > 0 ? tokens[tokens.length - 1]!.after : text);
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’]*/gu;
const APOSTROPHE = /['’]/u;

interface Token {
  /** The word as published (upper case). */
  text: string;
  /** The text between the previous word and this one (or the start). */
  before: string;
  /** The text after this word, up to the next word (or the end). */
  after: string;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let end = 0;
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const before = text.slice(end, start);
    if (tokens.length > 0) tokens[tokens.length - 1]!.after = before;
    tokens.push({ text: match[0], before, after: '' });
    end = start + match[0].length;
  }
  if (tokens.length > 0) tokens[tokens.length - 1]!.after = text.slice(end);
  return tokens;
}

/** Articles, conjunctions and short prepositions: lower case inside a title. */
const SMALL_WORDS = new Set(['A', 'AN', 'THE', 'AND', 'BUT', 'OR', 'NOR', 'OF', 'AT', 'BY', 'FOR', 'IN', 'ON', 'TO']);
SMALL_WORDS.add('AS');
/** Romance particles, lower inside a name ("Hernando de Soto", "Fond du Lac", "da Vinci"). */
const PARTICLES = new Set(['DE', 'DEL', 'DU', 'DA']);
/** Articles lower only after a particle ("de la Cruz"); alone they start US place names. */
const PARTICLE_ARTICLES = new Set(['LA', 'LAS', 'LOS', 'EL']);
/** Words after which a particle begins a place name and keeps its capital ("West De Pere"). */
const PLACE_WORDS = new Set([
  'NORTH',
  'SOUTH',
  'EAST',
  'WEST',
  'N',
  'S',
  'E',
  'W',
  'NEW',
  'LAKE',
  'PORT',
  'FORT',
  'FT',
  'MOUNT',
  'MT',
  'ST',
  'SAINT',
]);
/** Words after which "A" is the article ("FOR A", "IT'S A"), not an initial ("JOHN A SMITH"). */
const ARTICLE_TRIGGERS = new Set([
  'FOR',
  'OF',
  'TO',
  'AS',
  'IN',
  'ON',
  'BY',
  'IS',
  "IT'S",
  'WITH',
  'WITHIN',
  'FROM',
  'INTO',
  'BE',
  'BEING',
  'BECOME',
  'TAKES',
  'MAKE',
  'MAKES',
  'MAKING',
  'LIKE',
  'WHAT',
  'SUCH',
  'HAVE',
  'HAS',
  'WAS',
  'NOT',
]);

/** Acronyms that contain a vowel (those without one are caught by the no-vowel rule). */
const ACRONYMS = new Set([
  'KIPP',
  'STEM',
  'STEAM',
  'STEMM',
  'YMCA',
  'YWCA',
  'JROTC',
  'ROTC',
  'AVID',
  'ESL',
  'ESOL',
  'ELL',
  'IDEA',
  'USA',
  'NYC',
  'SDA',
  'ISD',
  'CISD',
  'USD',
  'ESD',
  'CUSD',
  'AEP',
  'DAEP',
  'JJAEP',
  'ALC',
  'ALP',
  'BOCES',
  'CTE',
  'ECE',
  'ECSE',
  'ECEAP',
  'ELC',
  'ECC',
  'EC',
  'ES',
  'IB',
  'AFB',
  'ABC',
  'ASU',
  'NASA',
  'PTA',
  'PTO',
  'HBCU',
  'ESE',
  'ESU',
  'SU',
  'IQ',
  'AVTS',
  'DBA',
  'PO',
  'NE',
  'SE',
]);
/** Vowel-less abbreviations that are words, not acronyms: title case ("St", "Ctr", "Blvd"). */
const ABBREVIATIONS = new Set([
  'ST',
  'STS',
  'SS',
  'DR',
  'MT',
  'FT',
  'JR',
  'SR',
  'MR',
  'MRS',
  'WM',
  'FR',
  'SGT',
  'LT',
  'CPT',
  'CPL',
  'LTD',
  'MC',
  'PH',
  'SCH',
  'SCHL',
  'SCHLS',
  'CTR',
  'CNTR',
  'CHTR',
  'LRN',
  'LRNG',
  'KDGN',
  'PRGM',
  'PRG',
  'SP',
  'BLVD',
  'BLV',
  'RD',
  'LN',
  'PL',
  'CT',
  'TR',
  'TRL',
  'BLDG',
  'SQ',
  'PLZ',
  'RDG',
  'HTS',
  'HGTS',
  'JCT',
  'TWP',
  'MTN',
  'LK',
  'PT',
  'HL',
  'HLS',
  'BR',
  'BND',
  'CRK',
  'CV',
  'FRNT',
  'KM',
  'HM',
  'BL',
  'HW',
  'PW',
  'PKW',
  'RM',
  'BX',
  'RT',
  'BRD',
  'PRGS',
]);
/** Roman numerals from a fixed set: a pattern would also match words ("MIX", "CIVIC", "DILL"). */
const ROMAN = new Set(
  'II III IV VI VII VIII IX XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI XXII XXIII XXIV'.split(' '),
);
/** Mac names; most MAC- words are not ("MACON", "MACHIAS", "MACK", "MACEDONIA"). */
const MAC_NAMES = new Map(
  [
    'MacArthur',
    'MacDonald',
    'MacDonell',
    'MacDougall',
    'MacDill',
    'MacDade',
    'MacFarlane',
    'MacGregor',
    'MacIntyre',
    'MacLeod',
    'MacMillan',
    'MacNeil',
    'MacPherson',
    'MacCormick',
  ].map((name) => [name.toUpperCase(), name]),
);
/** Route prefixes of street addresses, upper before a number ("FM 1960", "SR 50", "HC 40"). */
const ROUTE_PREFIXES = new Set(['US', 'SR', 'CR', 'FM', 'RR', 'HC', 'HCR', 'TR', 'SH', 'PR']);
/** Words that make a state code before them a route ("GA HIGHWAY 83", "IL ROUTE 120"). */
const ROUTE_WORDS = new Set(['HWY', 'HIGHWAY', 'ROUTE', 'RTE', 'RT', 'SPUR', 'LOOP', 'BYPASS', 'BUS']);
/** USPS state and territory codes (states.ts): upper before a number in addresses ("NC 126"). */
const US_CODES: ReadonlySet<string> = new Set([...US_STATE_CODES, ...US_TERRITORY_CODES]);
/** A contraction or possessive after an apostrophe stays lower ("MARY'S", "DON'T", "WE'LL"). */
const CONTRACTIONS = new Set(['S', 'T', 'LL', 'RE', 'VE', 'D', 'M']);
const ORDINAL = /^(\d+)(ST|ND|RD|TH)$/u;
const VOWEL = /[AEIOUYÀ-ÖØ-Ý]/u;

/** A word starts a part: the start of the text, or after a colon, bracket, slash or spaced dash. */
function startsPart(tokens: Token[], i: number): boolean {
  if (i === 0) return true;
  const before = tokens[i]!.before;
  return /[:;([{"“/–—|]/u.test(before) || /\s-|-\s/u.test(before);
}

function caseWord(tokens: Token[], i: number, kind: DisplayKind): string {
  const token = tokens[i]!;
  const word = token.text;
  const previous = i > 0 ? tokens[i - 1]!.text : '';
  const next = i + 1 < tokens.length ? tokens[i + 1]!.text : '';
  const nextIsNumber = /^\d/u.test(next) && /^[\s#-]*$/u.test(token.after);
  const atStart = startsPart(tokens, i);

  if (/\p{N}/u.test(word)) return caseWithDigits(word);
  if (kind === 'address' && isRouteCode(word, next, nextIsNumber)) return word;
  if (isLetterCount(word, 1)) {
    if (word === 'A' && !atStart && ARTICLE_TRIGGERS.has(previous) && next !== '' && !isLetterCount(next, 1)) {
      return 'a';
    }
    return word;
  }
  if (!atStart) {
    if (SMALL_WORDS.has(word)) return lower(word);
    if (PARTICLES.has(word) && !PLACE_WORDS.has(previous)) return lower(word);
    if (PARTICLE_ARTICLES.has(word) && PARTICLES.has(previous)) return lower(word);
  }
  if (ACRONYMS.has(word) || ROMAN.has(word)) return word;
  if (word === 'YES' && next === 'PREP') return word;
  if (word === 'IS' && (nextIsNumber || isPairedWithSchool(token, previous, next))) return word;
  // "15 TH AVENUE": an ordinal suffix typed apart from its number.
  if ((word === 'TH' || word === 'ND') && /^\d+$/u.test(previous) && token.before === ' ') return lower(word);
  if (isInitialism(tokens, i)) return word;
  if (APOSTROPHE.test(word)) return caseApostrophes(word);
  return caseLetters(word);
}

/** "US 41", "FM 1960", "NC 126", "GA HIGHWAY 83"; but "CO RD 12" is a county road ("Co Rd"). */
function isRouteCode(word: string, next: string, nextIsNumber: boolean): boolean {
  if (word === 'US') return true;
  if (nextIsNumber) return ROUTE_PREFIXES.has(word) || US_CODES.has(word);
  return US_CODES.has(word) && word !== 'CO' && ROUTE_WORDS.has(next);
}

/** Combined school codes: NYC's "PS/IS 384", "IS/HS 141"; Minnesota's "HS-IS", "ALP IS". */
function isPairedWithSchool(token: Token, previous: string, next: string): boolean {
  const codes = /^(PS|MS|HS|JHS|ALC|ALP)$/u;
  return (
    (codes.test(previous) && /^\s*[/-]?\s*$/u.test(token.before)) ||
    (codes.test(next) && /^\s*\/\s*$/u.test(token.after))
  );
}

/** Case of a word of letters only, without apostrophes. */
function caseLetters(word: string): string {
  if (ABBREVIATIONS.has(word)) return capitalise(word);
  if (!VOWEL.test(word)) return word;
  const mac = MAC_NAMES.get(word);
  if (mac) return mac;
  if (/^MC\p{L}{3,}$/u.test(word) && VOWEL.test(word.slice(2))) return `Mc${capitalise(word.slice(2))}`;
  return capitalise(word);
}

/** "O'BRIEN" → "O'Brien", "D'IBERVILLE" → "D'Iberville", but "MARY'S" → "Mary's". */
function caseApostrophes(word: string): string {
  const parts = word.split(/(['’])/u);
  let out = '';
  for (let k = 0; k < parts.length; k += 2) {
    const part = parts[k]!;
    const mark = parts[k + 1] ?? '';
    if (k === 0) out += isLetterCount(part, 1) ? part : caseLetters(part);
    else if (k === 2 && isLetterCount(parts[0]!, 1) && !CONTRACTIONS.has(part)) out += caseLetters(part);
    else out += lower(part);
    out += mark;
  }
  return out;
}

/** Ordinals lower their suffix ("21ST" → "21st"); other codes with digits stay as published. */
function caseWithDigits(word: string): string {
  const ordinal = ORDINAL.exec(word);
  return ordinal ? ordinal[1]! + lower(ordinal[2]!) : word;
}

/**
 * A word spelled by the initials of the words around a bracket: "THE ALTERNATIVE PROGRAM (TAP)"
 * or "KAPPA (KNOWLEDGE AND POWER PREP ACADEMY)". Small words may be in or out of the initials.
 */
function isInitialism(tokens: Token[], i: number): boolean {
  const word = tokens[i]!.text;
  if (word.length < 2 || !/^\p{L}+$/u.test(word)) return false;
  const token = tokens[i]!;
  if (token.before.trim().endsWith('(') && token.after.trim().startsWith(')')) {
    const previous: string[] = [];
    for (let k = i - 1; k >= 0 && previous.length < word.length + 4; k--) {
      previous.unshift(tokens[k]!.text);
      if (k > 0 && /[()]/u.test(tokens[k]!.before)) break;
    }
    return spells(word, previous.slice(-word.length)) || spells(word, withoutSmall(previous).slice(-word.length));
  }
  if (token.after.trim() === '(') {
    const following: string[] = [];
    for (let k = i + 1; k < tokens.length; k++) {
      following.push(tokens[k]!.text);
      if (tokens[k]!.after.includes(')')) break;
    }
    return spells(word, following) || spells(word, withoutSmall(following));
  }
  return false;
}

function withoutSmall(words: string[]): string[] {
  return words.filter((w) => !SMALL_WORDS.has(w));
}

function spells(word: string, words: string[]): boolean {
  return words.length === word.length && words.every((w, k) => w[0] === word[k]);
}

function isLetterCount(word: string, count: number): boolean {
  return [...word].length === count && /^\p{L}+$/u.test(word);
}

/** Unicode default lower case: the same on every server, whatever its locale. */
function lower(text: string): string {
  return text.toLowerCase();
}

/** First character as published (upper), the rest lower. */
function capitalise(word: string): string {
  const [first = '', ...rest] = word;
  return first + lower(rest.join(''));
}
