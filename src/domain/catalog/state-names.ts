// The state or province a directory means, however it writes it: the contract's code in any case
// ("qc"), the name in English or French ("Texas", "Colombie-Britannique", "Quebec"), or a common
// abbreviation ("Calif.", "Ont.", "P.E.I."). Names are compared folded: case, accents, spaces
// and punctuation aside ("Terre Neuve et Labrador" is "Terre-Neuve-et-Labrador").
import { words } from '../shared/normalize.ts';
import { STATE_CODES } from './states.ts';

/** Each code's names and abbreviations, English then French; the code itself is always accepted. */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  AL: ['Alabama', 'Ala.'],
  AK: ['Alaska'],
  AZ: ['Arizona', 'Ariz.'],
  AR: ['Arkansas', 'Ark.'],
  CA: ['California', 'Calif.', 'Cal.', 'Californie'],
  CO: ['Colorado', 'Colo.'],
  CT: ['Connecticut', 'Conn.'],
  DE: ['Delaware', 'Del.'],
  DC: ['District of Columbia', 'Washington, D.C.', 'District de Columbia'],
  FL: ['Florida', 'Fla.', 'Floride'],
  GA: ['Georgia', 'Géorgie'],
  HI: ['Hawaii', 'Hawaï'],
  ID: ['Idaho'],
  IL: ['Illinois', 'Ill.'],
  IN: ['Indiana', 'Ind.'],
  IA: ['Iowa'],
  KS: ['Kansas', 'Kan.', 'Kans.'],
  KY: ['Kentucky'],
  LA: ['Louisiana', 'Louisiane'],
  ME: ['Maine'],
  MD: ['Maryland'],
  MA: ['Massachusetts', 'Mass.'],
  MI: ['Michigan', 'Mich.'],
  MN: ['Minnesota', 'Minn.'],
  MS: ['Mississippi', 'Miss.'],
  MO: ['Missouri'],
  MT: ['Montana', 'Mont.'],
  NE: ['Nebraska', 'Neb.', 'Nebr.'],
  NV: ['Nevada', 'Nev.'],
  NH: ['New Hampshire', 'Nouveau-Hampshire'],
  NJ: ['New Jersey'],
  NM: ['New Mexico', 'Nouveau-Mexique'],
  NY: ['New York', 'État de New York'],
  NC: ['North Carolina', 'Caroline du Nord'],
  ND: ['North Dakota', 'N. Dak.', 'Dakota du Nord'],
  OH: ['Ohio'],
  OK: ['Oklahoma', 'Okla.'],
  OR: ['Oregon', 'Ore.', 'Oreg.'],
  PA: ['Pennsylvania', 'Penn.', 'Penna.', 'Pennsylvanie'],
  RI: ['Rhode Island'],
  SC: ['South Carolina', 'Caroline du Sud'],
  SD: ['South Dakota', 'S. Dak.', 'Dakota du Sud'],
  TN: ['Tennessee', 'Tenn.'],
  TX: ['Texas', 'Tex.'],
  UT: ['Utah'],
  VT: ['Vermont'],
  VA: ['Virginia', 'Virginie'],
  WA: ['Washington', 'Wash.', 'État de Washington'],
  WV: ['West Virginia', 'W. Va.', 'Virginie-Occidentale'],
  WI: ['Wisconsin', 'Wis.', 'Wisc.'],
  WY: ['Wyoming', 'Wyo.'],
  AS: ['American Samoa', 'Samoa américaines'],
  FM: ['Federated States of Micronesia', 'Micronesia', 'États fédérés de Micronésie', 'Micronésie'],
  GU: ['Guam'],
  MH: ['Marshall Islands', 'Îles Marshall'],
  MP: ['Northern Mariana Islands', 'Îles Mariannes du Nord'],
  PR: ['Puerto Rico', 'Porto Rico'],
  PW: ['Palau', 'Palaos'],
  VI: [
    'U.S. Virgin Islands',
    'United States Virgin Islands',
    'Virgin Islands',
    'Îles Vierges des États-Unis',
    'Îles Vierges américaines',
  ],
  AB: ['Alberta', 'Alta.', 'Alb.'],
  BC: ['British Columbia', 'Colombie-Britannique', 'C.-B.'],
  MB: ['Manitoba', 'Man.'],
  NB: ['New Brunswick', 'Nouveau-Brunswick'],
  NL: [
    'Newfoundland and Labrador',
    'Newfoundland & Labrador',
    'Newfoundland',
    'Nfld.',
    'Nfld. & Lab.',
    'Terre-Neuve-et-Labrador',
    'Terre-Neuve',
    'T.-N.-L.',
  ],
  NS: ['Nova Scotia', 'Nouvelle-Écosse'],
  NT: ['Northwest Territories', 'N.W.T.', 'Territoires du Nord-Ouest', 'T.N.-O.'],
  NU: ['Nunavut', 'Nvt.'],
  ON: ['Ontario', 'Ont.'],
  PE: ['Prince Edward Island', 'P.E.I.', 'Île-du-Prince-Édouard', 'Î.-P.-É.'],
  QC: ['Quebec', 'Québec', 'Que.', 'Qué.', 'Province de Québec'],
  SK: ['Saskatchewan', 'Sask.'],
  YT: ['Yukon', 'Yukon Territory', 'Territoire du Yukon'],
};

/**
 * Abbreviations whose letters spell another place's code, so they cannot be read by their
 * letters alone ("N.-É." is Nova Scotia, "NE" Nebraska; "T.-N." Newfoundland, "TN" Tennessee).
 * The code itself, written without punctuation, still means that code.
 */
const AMBIGUOUS: Readonly<Record<string, string>> = {
  ne: 'NE (Nebraska) or NS ("N.-É.", Nova Scotia)',
  tn: 'TN (Tennessee) or NL ("T.-N.", Terre-Neuve)',
};

/** Letters and digits only, folded: "Île-du-Prince-Édouard" and "ILE DU PRINCE EDOUARD" are "ileduprinceedouard". */
const key = (text: string): string => words(text).join('');

const BY_NAME: ReadonlyMap<string, string> = (() => {
  const byName = new Map<string, string>();
  for (const [code, names] of Object.entries(NAMES)) {
    for (const name of names) {
      const k = key(name);
      const other = byName.get(k);
      // A list error, caught by the first test that loads this module: one name, two places.
      if (other !== undefined && other !== code) throw new Error(`"${name}" names both ${other} and ${code}`);
      byName.set(k, code);
    }
  }
  return byName;
})();

export const STATE_FORMS =
  'its two-letter code (e.g. TX, DC, PR, ON, QC), or its name in English or French ("Texas", ' +
  '"Puerto Rico", "Québec", "Colombie-Britannique"), or a common abbreviation ("Calif.", "Ont.", "P.E.I.")';

export type StateResult =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly reason: string };

/** The contract's code for what a directory wrote in its state/province field, or why there is none. */
export function stateCode(given: string): StateResult {
  const trimmed = given.trim();
  const upper = trimmed.toUpperCase();
  if (STATE_CODES.has(upper)) return { ok: true, code: upper };
  const k = key(trimmed);
  const ambiguous = AMBIGUOUS[k];
  if (ambiguous !== undefined) return { ok: false, reason: `stateprovince "${trimmed}" is ambiguous: ${ambiguous}` };
  const named = BY_NAME.get(k);
  if (named !== undefined) return { ok: true, code: named };
  // A code with dots or spaces in it: "N.Y.", "B.C.", "D.C.".
  if (k.length === 2 && STATE_CODES.has(k.toUpperCase())) return { ok: true, code: k.toUpperCase() };
  return {
    ok: false,
    reason: `stateprovince "${trimmed}" is not a US state/territory or Canadian province/territory: give ${STATE_FORMS}`,
  };
}
