// The names derived for colleges at import: web names and initialisms, on real directory rows.
import { describe, expect, it } from 'vitest';
import {
  campusForm,
  collegeAliases,
  initialisms,
  systemShortForms,
  webName,
  webNameFits,
} from '../../src/import/college-aliases.ts';

describe('webName', () => {
  it('is the registrable label of the address, whatever its scheme, www, path or case', () => {
    expect(webName('https://umich.edu/')).toBe('umich');
    expect(webName('www.pitt.edu/')).toBe('pitt');
    expect(webName('HTTP://WWW.NYU.EDU/admissions?x=1')).toBe('nyu');
    // A college under its system's domain shares the system's name.
    expect(webName('bmcc.cuny.edu')).toBe('cuny');
    expect(webName('www.k-state.edu')).toBe('k-state');
    // Public suffixes of more than one label.
    expect(webName('www.deanza.fhda.cc.ca.us/')).toBe('fhda');
    expect(webName('www.example.k12.mo.us')).toBe('example');
    expect(webName('www.uprm.edu.pr')).toBe('uprm');
  });

  it('is nothing for a blank, a bare word, an IP address or a label too general to name a college', () => {
    for (const address of [undefined, '', ' ', 'n/a', 'localhost', '192.168.0.1', 'www.college.edu', 'https://www.edu'])
      expect(webName(address), String(address)).toBeUndefined();
  });
});

describe('webNameFits', () => {
  it('holds when the letters are in the name in order from the start of one of its words', () => {
    expect(webNameFits('umich', 'University of Michigan-Ann Arbor')).toBe(true);
    expect(webNameFits('gatech', 'Georgia Institute of Technology-Main Campus')).toBe(true);
    expect(webNameFits('olemiss', 'Ole Miss')).toBe(true);
    expect(webNameFits('olemiss', 'University of Mississippi')).toBe(false);
    // A district's domain is not the career center's name.
    expect(webNameFits('washington', 'Four Rivers Career Center')).toBe(false);
  });
});

describe('initialisms', () => {
  it('are the first letters of the words but stop words, of the whole name and of the system before a campus', () => {
    expect(initialisms('New York University')).toEqual(['nyu']);
    expect(initialisms('University of California-Los Angeles')).toEqual(['ucla', 'uc'].filter((a) => a.length >= 3));
    expect(initialisms('University of North Carolina at Chapel Hill')).toEqual(['uncch', 'unc']);
    expect(initialisms('Texas A & M University-College Station')).toEqual(['tamucs', 'tamu']);
  });

  it('are none for a name without a generic word, with digits, or of fewer than three letters', () => {
    expect(initialisms('Lincoln Land')).toEqual([]);
    expect(initialisms('Harvard University')).toEqual([]);
    expect(initialisms('P.S. 123 College Prep')).toEqual([]);
  });
});

describe('campusForm', () => {
  it("is the system's initials and the campus, for a campus of a system named with a generic word", () => {
    expect(campusForm('University of Wisconsin-Madison')).toBe('uw madison');
    expect(campusForm('The University of Texas at Austin')).toBe('ut austin');
    expect(campusForm('University of North Carolina at Chapel Hill')).toBe('unc chapel hill');
  });

  it('is none for a main campus, a hyphenated place or a one-word system', () => {
    expect(campusForm('Purdue University-Main Campus')).toBeUndefined();
    expect(campusForm('Wilkes-Barre Area Career and Technical Center')).toBeUndefined();
    expect(campusForm('Harvard University')).toBeUndefined();
    expect(campusForm('University-Online')).toBeUndefined();
  });
});

describe('collegeAliases', () => {
  it('gives the web name first, then the initialisms no other college claims', () => {
    const aliases = collegeAliases([
      { name: 'University of Southern California', web: 'www.usc.edu/' },
      { name: 'University of South Carolina-Columbia', web: 'www.sc.edu/' },
      { name: 'Union Bible College', web: 'www.ubc.edu' },
      { name: 'United Beauty College', web: 'unitedbeauty.com' },
      { name: 'Johns Hopkins University', web: 'www.jhu.edu/' },
      { name: 'Loraines Academy & Spa', web: 'www.lorainesacademy.edu' },
      { name: 'Las Vegas College', web: '' },
      { name: 'University of Mississippi', web: 'www.olemiss.edu/', aliases: ['Ole Miss'] },
    ]);
    expect(aliases).toEqual([
      ['usc'],
      // "usc" is usc.edu's: South Carolina keeps its web name and its whole initialism.
      ['sc', 'uscc', 'usc columbia'],
      // Two colleges are "ubc": only the one whose web name it is gets it.
      ['ubc'],
      ['unitedbeauty'],
      ['jhu'],
      // "las" is a word of another college's name ("Las Vegas"): a user typing it means that word.
      ['lorainesacademy'],
      ['lvc'],
      ['olemiss'],
    ]);
  });
});

describe('system short forms', () => {
  const UMASS = [
    { name: 'University of Massachusetts-Amherst', web: 'www.umass.edu/', aliases: ['UMass Amherst'] },
    { name: 'University of Massachusetts-Dartmouth', web: 'www.umassd.edu/', aliases: ['UMass Dartmouth'] },
    { name: 'University of Massachusetts-Boston', web: 'www.umb.edu/', aliases: ['UMB'] },
    { name: 'University of Massachusetts-Lowell', web: 'www.uml.edu/' },
    { name: 'University of Massachusetts Global', web: 'www.umassglobal.edu/' },
  ];

  it('learns what a system is called from a campus the directory calls by it and its campus', () => {
    expect(systemShortForms(UMASS)).toEqual(new Map([['university massachusetts', new Set(['umass'])]]));
    // An alias that is not one word and the campus, or whose word is the system's own, teaches nothing.
    expect(
      systemShortForms([
        { name: 'University of Wisconsin-Madison', aliases: ['UW Madison Campus', 'Wisconsin Madison', 'Madison'] },
        { name: 'Harvard University', aliases: ['Harvard Crimson'] },
        // A state's code in a chain's branch name is not the chain's name.
        { name: 'Paul Mitchell the School-Austin', aliases: ['PMTX-Austin'] },
      ]),
    ).toEqual(new Map());
  });

  it('gives each campus of the system its campus after the short form, unless its row lists it already', () => {
    const aliases = collegeAliases(UMASS);
    expect(aliases[2]).toContain('umass boston');
    expect(aliases[3]).toContain('umass lowell');
    // Amherst and Dartmouth list theirs; a name without a campus gets none.
    expect(aliases[0]).not.toContain('umass amherst');
    expect(aliases[1]).not.toContain('umass dartmouth');
    expect(aliases[4]!.some((a) => a.startsWith('umass '))).toBe(false);
  });
});
