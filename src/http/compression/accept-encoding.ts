// Which content coding an answer goes in, from the request's Accept-Encoding (RFC 9110 12.5.3):
// the acceptable coding of highest q-value, Brotli before gzip when they tie (smaller for the same
// CPU once kept: docs/decisions/0028-compressed-answers.md), none when neither is acceptable.
// `identity;q=0` with nothing else acceptable is answered uncompressed anyway: a 406 for a search
// would be less use to the client than bytes it may still read.

export type Coding = 'br' | 'gzip';

/** A client sends the same header on every request: the last few are remembered, parsed. */
const remembered = new Map<string, Coding | undefined>();
const REMEMBERED_MAX = 64;

export function codingFor(header: string | undefined): Coding | undefined {
  if (header === undefined || header === '') return undefined;
  if (remembered.has(header)) return remembered.get(header);
  const coding = parse(header);
  if (remembered.size >= REMEMBERED_MAX) remembered.clear();
  remembered.set(header, coding);
  return coding;
}

function parse(header: string): Coding | undefined {
  let br: number | undefined;
  let gzip: number | undefined;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') q = qValue(value.trim());
    }
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (coding === '*') star = q;
  }
  // `*` stands for every coding not named.
  const brQ = br ?? star ?? 0;
  const gzipQ = gzip ?? star ?? 0;
  if (brQ <= 0 && gzipQ <= 0) return undefined;
  return brQ >= gzipQ ? 'br' : 'gzip';
}

/** A q-value (0 to 1, three decimals at most); anything else counts as 0, not acceptable. */
function qValue(text: string): number {
  if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text)) return 0;
  return Number(text);
}
