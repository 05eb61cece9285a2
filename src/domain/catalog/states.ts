// The codes of US states and territories and Canadian provinces and territories: the one table
// the contract's StateCode enum, the importers and the display of addresses read (test/api/operations.test.ts
// checks that the contract's enum and STATE_CODES agree).

/** US states and the District of Columbia. */
export const US_STATE_CODES: readonly string[] = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
];

/** US territories and freely associated states (all present in the IPEDS directory). */
export const US_TERRITORY_CODES: readonly string[] = ['AS', 'FM', 'GU', 'MH', 'MP', 'PR', 'PW', 'VI'];

/** Canadian provinces and territories. */
export const CANADIAN_CODES: readonly string[] = [
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'NT',
  'NU',
  'ON',
  'PE',
  'QC',
  'SK',
  'YT',
];

/** Every code the API takes and returns: imports reject what the API could never return. */
export const STATE_CODES: ReadonlySet<string> = new Set([...US_STATE_CODES, ...US_TERRITORY_CODES, ...CANADIAN_CODES]);
