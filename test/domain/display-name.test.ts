import { fileURLToPath } from 'node:url';
// Display case for ALL-CAPS directory text. Every example is a real name, city or street address
// from the NCES CCD 2019-20, HIFLD private schools or EDGE 2014-15 files.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { FAST } from '../support/slow.ts';
import { sharedData } from '../support/shared-data.ts';
import {
  displayAddress,
  displayCase,
  displayCity,
  displayName,
  isAllCaps,
} from '../../src/domain/catalog/display-name.ts';

describe('which text is ALL CAPS', () => {
  test('when text has upper-case letters and no lower-case one, then it is ALL CAPS', () => {
    expect(isAllCaps('LINCOLN ELEMENTARY SCHOOL')).toBe(true);
    expect(isAllCaps('PS 123')).toBe(true);
    expect(isAllCaps('ÉCOLE')).toBe(true);
  });

  test('when text has a lower-case letter or no letter, then it is not ALL CAPS and is kept as published', () => {
    expect(isAllCaps('iLEAD Spring Meadows')).toBe(false);
    expect(isAllCaps('1000 36')).toBe(false);
    expect(isAllCaps('')).toBe(false);
    for (const text of ['Albertville Middle School', 'iLEAD Spring Meadows', 'DeKalb High School', '1000 36', '']) {
      expect(displayCase(text)).toBe(text);
    }
  });
});

describe('names', () => {
  test('when a name is one word of up to four letters, then it is taken for an acronym and kept; longer, it is a word', () => {
    expect(displayName('VICC')).toBe('VICC');
    expect(displayName('WCOC')).toBe('WCOC');
    expect(displayName('CORNERSTONE')).toBe('Cornerstone');
    expect(displayCity('ERIE')).toBe('Erie');
  });

  test('when words are ordinary, then each gets a capital and the rest is lower', () => {
    expect(displayName('LINCOLN ELEMENTARY SCHOOL')).toBe('Lincoln Elementary School');
    expect(displayName('ÉCOLE BILINGUE DE BERKELEY')).toBe('École Bilingue de Berkeley');
  });

  test('when small words are inside, then they are lower; at the start of the text or of a part they are not', () => {
    expect(displayName('SCHOOL OF THE ARTS')).toBe('School of the Arts');
    expect(displayName('THE ALTERNATIVE SCHOOL')).toBe('The Alternative School');
    expect(displayName('JUDITH S KAYE HIGH SCHOOL (THE)')).toBe('Judith S Kaye High School (The)');
    expect(displayName('EXIMIUS COLLEGE PREPARATORY ACADEMY:  A COLLEGE BOARD SCHOOL')).toBe(
      'Eximius College Preparatory Academy:  A College Board School',
    );
  });

  test('when a lone A follows a name, then it is an initial; after a word that takes an article, it is "a"', () => {
    expect(displayName('JOHN A DUBISKI CAREER H S')).toBe('John A Dubiski Career H S');
    expect(displayName('A A GATES ELEMENTARY SCHOOL')).toBe('A A Gates Elementary School');
    expect(displayName("IT'S A SMALL WORLD ACADEMY")).toBe("It's a Small World Academy");
    expect(displayName('IT TAKES A VILLAGE ACADEMY')).toBe('It Takes a Village Academy');
  });

  test('when Spanish or French particles are inside, then they are lower, but not where they start a place name', () => {
    expect(displayName('PS 130 HERNANDO DE SOTO')).toBe('PS 130 Hernando de Soto');
    expect(displayName('CENTRO DE ADIESTRAMIENTO')).toBe('Centro de Adiestramiento');
    expect(displayName('DE ZAVALA MIDDLE SCHOOL')).toBe('De Zavala Middle School');
    expect(displayName('MONTESSORI ACADEMY OF LA PUENTE')).toBe('Montessori Academy of La Puente');
    expect(displayName('SU JUAN CANCIO ORTIZ DE LA RENTA')).toBe('SU Juan Cancio Ortiz de la Renta');
    expect(displayName('IS 61 LEONARDO DA VINCI')).toBe('IS 61 Leonardo da Vinci');
    expect(displayCity('WEST DE PERE')).toBe('West De Pere');
    expect(displayCity('FOND DU LAC')).toBe('Fond du Lac');
    expect(displayCity('LOS ANGELES')).toBe('Los Angeles');
  });

  test('when St, Mt, Ft, Dr, Jr or Sr appear, then they are abbreviations in title case, dotted or not', () => {
    expect(displayName("ST MARY'S SCHOOL")).toBe("St Mary's School");
    expect(displayName('ST. JOHN THE BAPTIST SCHOOL')).toBe('St. John the Baptist School');
    expect(displayName('MARTIN LUTHER KING JR ELEMENTARY SCHOOL')).toBe('Martin Luther King Jr Elementary School');
    expect(displayName('WEST BROOK SR H S')).toBe('West Brook Sr H S');
    expect(displayName('DR JOSEPH A FOWLER EL')).toBe('Dr Joseph A Fowler El');
    expect(displayName('SS PETER & PAUL SCHOOL')).toBe('Ss Peter & Paul School');
    expect(displayCity('MT PLEASANT')).toBe('Mt Pleasant');
    expect(displayCity('FT WORTH')).toBe('Ft Worth');
  });

  test('when initials and listed acronyms appear, then they stay upper', () => {
    expect(displayName('E A JONES EL')).toBe('E A Jones El');
    expect(displayName('HIDALGO CO J J A E P')).toBe('Hidalgo Co J J A E P');
    expect(displayName('J.F.K. MIDDLE SCHOOL')).toBe('J.F.K. Middle School');
    expect(displayName('KIPP SOMOS H S')).toBe('KIPP Somos H S');
    expect(displayName('IDEA ACADEMY SAN BENITO')).toBe('IDEA Academy San Benito');
    expect(displayName('JACK ABRAMS STEM MAGNET SCHOOL')).toBe('Jack Abrams STEM Magnet School');
    expect(displayName('YES PREP - NORTHSIDE')).toBe('YES Prep - Northside');
    expect(displayName('YES HOUSE ALTERNATIVE SCHOOL')).toBe('Yes House Alternative School');
    expect(displayName('STANDIFER GAP SDA SCHOOL')).toBe('Standifer Gap SDA School');
    expect(displayName('FORT BEND ISD EARLY LITERACY CENTER')).toBe('Fort Bend ISD Early Literacy Center');
    expect(displayName('SCHOOL OF CAREER AND TECHNICAL ED')).toBe('School of Career and Technical Ed');
  });

  test('when ordinary words could be acronyms, then they are words unless listed', () => {
    expect(displayName('LEAD ACADEMY')).toBe('Lead Academy');
    expect(displayName('SCHOOL AROUND US')).toBe('School Around Us');
    expect(displayName('EPIC CHARTER SCHOOL')).toBe('Epic Charter School');
  });

  test('when NYC school codes appear, then PS, IS, MS, JHS and HS stay upper, and IS only as a code', () => {
    expect(displayName('PS 44 THOMAS C BROWN')).toBe('PS 44 Thomas C Brown');
    expect(displayName('IS 61 WILLIAM A MORRIS')).toBe('IS 61 William A Morris');
    expect(displayName('MS 88 PARK SLOPE')).toBe('MS 88 Park Slope');
    expect(displayName('JHS 226 VIRGIL I GRISSON')).toBe('JHS 226 Virgil I Grisson');
    expect(displayName('PS/IS 384 FRANCES E CARTER')).toBe('PS/IS 384 Frances E Carter');
    expect(displayName('P.S. 123')).toBe('P.S. 123');
    expect(displayName('JESUS IS LORD CHRISTIAN SCHOOL')).toBe('Jesus Is Lord Christian School');
  });

  test('when a word has no vowel, then it is an acronym unless it is a known abbreviation', () => {
    expect(displayName('ADAMS CENTRAL JR-SR HIGH SCH')).toBe('Adams Central Jr-Sr High Sch');
    expect(displayName('COLONIAL HEIGHTS TECH CTR')).toBe('Colonial Heights Tech Ctr');
    expect(displayName('MOUNT VERNON SDA ELEMENTARY SCHOOL')).toBe('Mount Vernon SDA Elementary School');
    expect(displayName('CENTRAL MN ALC SARTELL')).toBe('Central MN ALC Sartell');
    expect(displayName('GIBBONS STREET PK CENTER')).toBe('Gibbons Street PK Center');
  });

  test('when a bracketed word spells the initials of the words beside it, then it is an acronym', () => {
    expect(displayName('IS THE ALTERNATIVE PROGRAM (TAP)')).toBe('Is the Alternative Program (TAP)');
    expect(displayName('COASTAL ALTERNATIVE PROGRAM (CAP)')).toBe('Coastal Alternative Program (CAP)');
    expect(displayName('SCHOOL BARRIO SABANA HOYOS (NUEVA)')).toBe('School Barrio Sabana Hoyos (Nueva)');
  });

  test('when Roman numerals from the fixed set appear, then they stay upper; look-alike words do not', () => {
    expect(displayName('POPE JOHN PAUL II CATHOLIC H S')).toBe('Pope John Paul II Catholic H S');
    expect(displayName('ST JOHN XXIII CATHOLIC SCHOOL')).toBe('St John XXIII Catholic School');
    expect(displayName('SOUTH BRONX CLASSICAL CHARTER SCHOOL III')).toBe('South Bronx Classical Charter School III');
    expect(displayName('CIVIC LEADERSHIP ACADEMY')).toBe('Civic Leadership Academy');
    expect(displayCity('DIX HILLS')).toBe('Dix Hills');
    expect(displayCity('MILL VALLEY')).toBe('Mill Valley');
  });

  test('when a name is Mc, Mac, O or D apostrophe, then the capital follows; other Mac- words are plain', () => {
    expect(displayName('MCKINLEY ELEMENTARY')).toBe('McKinley Elementary');
    expect(displayName('DOUGLAS MACARTHUR JHS')).toBe('Douglas MacArthur JHS');
    expect(displayName("THE O'NEAL SCHOOL")).toBe("The O'Neal School");
    expect(displayCity("D'IBERVILLE")).toBe("D'Iberville");
    expect(displayCity("L'ANSE")).toBe("L'Anse");
    expect(displayCity('MACON')).toBe('Macon');
    expect(displayCity('MACHIAS')).toBe('Machias');
    expect(displayCity('MCALLEN')).toBe('McAllen');
    expect(displayCity('MC KEES ROCKS')).toBe('Mc Kees Rocks');
  });

  test('when words have apostrophes or hyphens, then possessives are lower and each hyphenated part is a word', () => {
    expect(displayName("CHILDREN'S HOUSE MONTESSORI")).toBe("Children's House Montessori");
    expect(displayName("ALL SAINTS' EPISCOPAL DAY SCHOOL")).toBe("All Saints' Episcopal Day School");
    expect(displayCity('WINSTON-SALEM')).toBe('Winston-Salem');
    expect(displayName('VICTORY CHARTER SCHOOL K-5')).toBe('Victory Charter School K-5');
    expect(displayName('THOMAS-FAY-CUSTER UNIFIED HS')).toBe('Thomas-Fay-Custer Unified HS');
  });

  test('when words have digits, then ordinals lower their suffix and other codes stay as published', () => {
    expect(displayName('WESLACO 21ST CENTURY CTE EARLY COLLEGE H S')).toBe(
      'Weslaco 21st Century CTE Early College H S',
    );
    expect(displayName('PS 9A')).toBe('PS 9A');
    expect(displayName('ACADEMY 360')).toBe('Academy 360');
  });
});

describe('addresses', () => {
  test('when an address has directions and ordinals, then directions stay upper and ordinals are lower', () => {
    expect(displayAddress('1000 NW 5TH ST')).toBe('1000 NW 5th St');
    expect(displayAddress('11001 SW 76TH ST RM 82')).toBe('11001 SW 76th St Rm 82');
    expect(displayAddress('1501 NE 2 AVE RM 234')).toBe('1501 NE 2 Ave Rm 234');
    expect(displayAddress('2209 N 15 TH AVENUE')).toBe('2209 N 15 th Avenue');
  });

  test('when an address has a route code, then the code stays upper; "CO RD" is a county road', () => {
    expect(displayAddress('63910 US HIGHWAY 50')).toBe('63910 US Highway 50');
    expect(displayAddress('1585 NC 126')).toBe('1585 NC 126');
    expect(displayAddress('558 GA HIGHWAY 83 S')).toBe('558 GA Highway 83 S');
    expect(displayAddress('5245 TR 629')).toBe('5245 TR 629');
    expect(displayAddress('801 DAMASCUS TR')).toBe('801 Damascus Tr');
    expect(displayAddress('HC 40 BOX 14')).toBe('HC 40 Box 14');
    expect(displayAddress('27052 CO RD 1')).toBe('27052 Co Rd 1');
    expect(displayAddress('105 PUTNAM RD PO BOX 218')).toBe('105 Putnam Rd PO Box 218');
  });

  test('when "US" is not in an address, then it is the word "Us"', () => {
    expect(displayName('KIDS R US CHILDCARE')).toBe('Kids R Us Childcare');
  });

  test('when a Puerto Rico address has km and hm, then they are units; Spanish particles are lower', () => {
    expect(displayAddress('CARR 149 KM 20 HM 9 BO PESA')).toBe('Carr 149 Km 20 Hm 9 Bo Pesa');
    expect(displayAddress('1100 CAMINO DE LAS ONDAS')).toBe('1100 Camino de las Ondas');
  });
});

// Names from the data files whose lower-case form must survive: only letters change case.
const SAMPLE = [
  'ST BENEDICT CATHOLIC SCHOOL',
  "D'IBERVILLE MIDDLE SCHOOL",
  'PS/IS 384 FRANCES E CARTER',
  'HIDALGO CO J J A E P',
  'ACADEMIA DE LA RECTA PORTA ICDS',
  'SIKESTON CAREER  TECH. CTR.',
  "KIDS 'R' KIDS #21",
  'CARR 159 KM O HM 7 AVE COROZAL',
  'ÉCOLE BILINGUE DE BERKELEY',
  'IS THE ALTERNATIVE PROGRAM (TAP)',
];

describe('folding and repeated use', () => {
  test('when text is shown, then only the case of letters changes and showing it again changes nothing', () => {
    for (const text of SAMPLE) {
      for (const show of [displayName, displayCity, displayAddress]) {
        const shown = show(text);
        expect(shown.toLowerCase()).toBe(text.toLowerCase());
        expect(show(shown)).toBe(shown);
      }
    }
  });

  // The whole directories: the shared data beside the repository (as CI lays it out), or the
  // folder K12_DATA_DIR names.
  const k12 = process.env['K12_DATA_DIR'] ? undefined : sharedData('k12/ccd-public-schools-2019-20.csv.gz');
  const dataDir = process.env['K12_DATA_DIR'] ?? fileURLToPath(new URL('../../../shared/data/k12', import.meta.url));
  test.skipIf(FAST || !existsSync(join(dataDir, 'ccd-public-schools-2019-20.csv.gz')) || k12?.present === false)(
    'when every ALL-CAPS name, city and address of the CCD, HIFLD and EDGE files is shown, then folding and the result are stable',
    () => {
      const fields: Array<[string, string, (text: string) => string]> = [
        ['ccd-public-schools-2019-20.csv.gz', 'school_name', displayName],
        ['ccd-public-schools-2019-20.csv.gz', 'city_location', displayCity],
        ['hifld-private-schools.csv.gz', 'NAME', displayName],
        ['hifld-private-schools.csv.gz', 'CITY', displayCity],
        ['hifld-private-schools.csv.gz', 'ADDRESS', displayAddress],
        ['edge-public-school-locations-2014-15.csv.gz', 'LSTREE', displayAddress],
        ['edge-public-school-locations-2014-15.csv.gz', 'LCITY', displayCity],
      ];
      let checked = 0;
      for (const [file, column, show] of fields) {
        for (const text of csvColumn(join(dataDir!, file), column)) {
          if (!isAllCaps(text)) continue;
          const shown = show(text);
          if (shown.toLowerCase() !== text.toLowerCase() || show(shown) !== shown) {
            expect({ text, shown, again: show(shown) }).toEqual({ text, shown: text, again: text });
          }
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(300_000);
    },
    120_000,
  );
});

const parsed = new Map<string, string[][]>();

/** One column of a gzipped CSV (RFC 4180 quoting), enough for the published directory files. */
function csvColumn(path: string, column: string): string[] {
  let rows = parsed.get(path);
  if (!rows) {
    rows = parseCsv(gunzipSync(readFileSync(path)).toString('utf8'));
    parsed.set(path, rows);
  }
  const index = rows[0]!.indexOf(column);
  return rows.slice(1).map((row) => row[index] ?? '');
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\n') {
      row.push(field.replace(/\r$/u, ''));
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
