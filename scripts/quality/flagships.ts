// Flagship cases: what a user types for a well-known institution, and the school that must come
// first. Each is a flagship with namesakes (campuses, systems, smaller schools sharing words), so
// the case shows that prominence, equality and alternative names decide as they should.
export interface Flagship {
  readonly query: string;
  readonly name: string;
  readonly state?: string;
}

export const FLAGSHIPS: readonly Flagship[] = [
  { query: 'purdue university', name: 'Purdue University-Main Campus' },
  { query: 'purdue', name: 'Purdue University-Main Campus' },
  { query: 'texas a&m', name: 'Texas A & M University-College Station' },
  { query: 'texas a and m university', name: 'Texas A & M University-College Station' },
  { query: 'penn', name: 'University of Pennsylvania' },
  { query: 'penn state', name: 'Pennsylvania State University-Main Campus' },
  { query: 'ohio state', name: 'Ohio State University-Main Campus' },
  { query: 'ohio state university', name: 'Ohio State University-Main Campus' },
  { query: 'rutgers', name: 'Rutgers University-New Brunswick' },
  { query: 'university of michigan', name: 'University of Michigan-Ann Arbor' },
  { query: 'michigan state', name: 'Michigan State University' },
  { query: 'university of texas', name: 'The University of Texas at Austin' },
  { query: 'university of washington', name: 'University of Washington-Seattle Campus' },
  { query: 'indiana university', name: 'Indiana University-Bloomington' },
  { query: 'university of minnesota', name: 'University of Minnesota-Twin Cities' },
  { query: 'university of illinois', name: 'University of Illinois Urbana-Champaign' },
  { query: 'university of wisconsin', name: 'University of Wisconsin-Madison' },
  { query: 'university of north carolina', name: 'University of North Carolina at Chapel Hill' },
  { query: 'arizona state', name: 'Arizona State University Campus Immersion' },
  { query: 'university of pittsburgh', name: 'University of Pittsburgh-Pittsburgh Campus' },
  { query: 'university of maryland', name: 'University of Maryland-College Park' },
  { query: 'university of colorado', name: 'University of Colorado Boulder' },
  { query: 'university of missouri', name: 'University of Missouri-Columbia' },
  { query: 'university of south carolina', name: 'University of South Carolina-Columbia' },
  { query: 'university of hawaii', name: 'University of Hawaii at Manoa' },
  { query: 'university of virginia', name: 'University of Virginia-Main Campus' },
  { query: 'university of massachusetts', name: 'University of Massachusetts-Amherst' },
  { query: 'university of nebraska', name: 'University of Nebraska-Lincoln' },
  { query: 'georgia tech', name: 'Georgia Institute of Technology-Main Campus' },
  { query: 'texas tech', name: 'Texas Tech University' },
  { query: 'harvard', name: 'Harvard University' },
  { query: 'mit', name: 'Massachusetts Institute of Technology' },
  { query: 'sheridan college', name: 'Sheridan College', state: 'ON' },
  { query: 'laval', name: 'Université Laval' },
  { query: 'laval university', name: 'Université Laval' },
  { query: 'mcgill', name: 'McGill University' },
  { query: 'university of toronto', name: 'University of Toronto' },
  { query: 'ubc', name: 'University of British Columbia' },
  { query: 'queens university', name: "Queen's University" },
];
