// The codes the contract's StateCode enum allows. Kept here so that imports reject what the API
// could never return; test/api/operations.test.ts checks the two lists agree.
export const STATE_CODES: ReadonlySet<string> = new Set([
  // US states and the District of Columbia
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA',
  'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM',
  'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA',
  'WV', 'WI', 'WY',
  // US territories and freely associated states (all present in the IPEDS directory)
  'AS', 'FM', 'GU', 'MH', 'MP', 'PR', 'PW', 'VI',
  // Canadian provinces and territories
  'AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT',
]);
