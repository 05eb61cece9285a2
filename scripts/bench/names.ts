// The word lists the synthetic catalog is built from. Shares are loosely modelled on the NCES K-12
// and IPEDS directories: about half the names contain "school", a third "elementary", one in seven
// "high".
import { weighted } from './random.ts';

/** Rough share of schools per state/province (default 1). */
// biome-ignore format: a word list, packed by hand to read as a list
export const STATE_WEIGHT: Readonly<Record<string, number>> = {
  CA: 9, TX: 8, NY: 4.5, FL: 3.8, IL: 3.8, OH: 3.4, PA: 3, MI: 3, NC: 2.4, GA: 2.2, NJ: 2.3, MO: 2.2,
  VA: 1.9, WI: 2, MN: 2, IN: 1.7, WA: 2.1, AZ: 2, TN: 1.7, MA: 1.7, CO: 1.7, OK: 1.6, KY: 1.3,
  IA: 1.2, AL: 1.4, LA: 1.3, SC: 1.1, MD: 1.3, AR: 1, MS: 1, KS: 1.2, OR: 1.2, NE: 1, NM: 0.8,
  UT: 0.9, WV: 0.7, ID: 0.7, CT: 1, ME: 0.6, NH: 0.5, MT: 0.8, SD: 0.7, ND: 0.5, NV: 0.7, AK: 0.5,
  HI: 0.3, RI: 0.3, DE: 0.2, VT: 0.3, WY: 0.3, DC: 0.2,
  PR: 1, AS: 0.03, FM: 0.03, GU: 0.05, MH: 0.03, MP: 0.03, PW: 0.02, VI: 0.05,
  ON: 4, QC: 2.4, BC: 1.4, AB: 1.4, MB: 0.6, SK: 0.7, NS: 0.4, NB: 0.3, NL: 0.25, PE: 0.06,
  NT: 0.04, NU: 0.03, YT: 0.03,
};
export const CANADA = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

// biome-ignore format: a word list, packed by hand to read as a list
export const US_TOWNS = [
  'Springfield', 'Franklin', 'Greenville', 'Clinton', 'Madison', 'Georgetown', 'Salem', 'Fairview',
  'Riverside', 'Marion', 'Oxford', 'Jackson', 'Arlington', 'Ashland', 'Burlington', 'Manchester',
  'Milton', 'Newport', 'Auburn', 'Dover', 'Hudson', 'Kingston', 'Bristol', 'Canton', 'Chester',
  'Columbia', 'Florence', 'Hamilton', 'Lebanon', 'Monroe', 'Oakland', 'Plymouth', 'Richmond', 'Troy',
  'Union', 'Windsor', 'Winchester', 'Centerville', 'Lexington', 'Dayton', 'Princeton', 'Cleveland',
  'Bloomington', 'Jamestown', 'Lancaster', 'Mount Vernon', 'Mount Pleasant', 'Fort Worth',
  'Fort Collins', 'Saint Charles', 'Saint Joseph', 'San Jose', 'San Diego', 'Santa Rosa',
  'Santa Clara', 'Los Alamos', 'El Paso', 'Las Cruces', 'Lake Forest', 'Cedar Rapids', 'Sioux Falls',
  'Grand Rapids', 'Palm Springs', 'Pine Bluff', 'Rock Hill', 'Baton Rouge', 'Oak Ridge', 'Glen Ellyn',
  'Brookfield', 'Westfield', 'Northfield', 'Southport', 'Eastlake', 'Highland Park', 'Highland',
  'Hillsboro', 'Lakewood', 'Maplewood', 'Edgewood', 'Wildwood', 'Greenwood', 'Brentwood', 'Ridgewood',
  'Elmwood', 'Kenwood', 'Sherwood', 'Inglewood', 'Englewood', 'Homewood', 'Crestview', 'Lakeview',
  'Bayview', 'Parkview', 'Valley View', 'Pleasant Hill', 'Walnut Creek', 'Sunnyvale', 'Fairfield',
  'Mansfield', 'Bakersfield', 'Chesterfield', 'Summerville', 'Somerset', 'Dorchester', 'Waverly',
  'Shelby', 'Sheridan', 'Harrison', 'Beaumont', 'Bellevue', 'Belmont', 'Brighton', 'Cambridge',
  'Camden', 'Carrollton', 'Clayton', 'Concord', 'Danville', 'Decatur', 'Elizabethtown', 'Eugene',
  'Frankfort', 'Gainesville', 'Glendale', 'Hanover', 'Hartford', 'Henderson', 'Jacksonville',
  'Lafayette', 'Laurel', 'Livingston', 'Middletown', 'Morgantown', 'Newark', 'Norwalk', 'Orange',
  'Pasadena', 'Portland', 'Quincy', 'Rochester', 'Rockford', 'Roseville', 'Shelbyville', 'Stamford',
  'Tyler', 'Vernon', 'Warren', 'Waterloo', 'Wheeling', 'Yorktown', 'Abilene', 'Alexandria', 'Athens',
  'Augusta', 'Bedford', 'Benton', 'Boulder', 'Buffalo', 'Carson', 'Dallas', 'Denton', 'Durham',
  'Elgin', 'Fresno', 'Greensboro', 'Houston', 'Irving', 'Kent', 'Lansing', 'Lowell', 'Macon',
  'Medford', 'Mesa', 'Modesto', 'Naples', 'Ogden', 'Olympia', 'Peoria', 'Provo', 'Raleigh', 'Reno',
  'Sparta', 'Tampa', 'Tulsa', 'Waco', 'Yuma',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const PLACE_HEADS = [
  'Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Willow', 'Spring', 'Green', 'Fair', 'River', 'Lake', 'Hill',
  'Brook', 'Stone', 'Red', 'West', 'East', 'North', 'South', 'Clear', 'Rock', 'Silver', 'Golden',
  'Sun', 'Wood', 'Ash', 'Birch', 'Cherry', 'Fox', 'Deer', 'Eagle', 'Hawk', 'Mill', 'Bridge', 'Glen',
  'High', 'New', 'Bay', 'Shady', 'Meadow', 'Prairie', 'Spruce', 'Aspen', 'Laurel', 'Hazel',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const PLACE_TAILS = [
  'wood', 'field', 'ville', 'ton', 'dale', 'view', 'ridge', 'brook', 'side', 'land', 'crest', 'haven',
  'port', 'mont', 'burg', 'ford', 'wick', 'moor', 'vale', 'bury', 'ley', 'creek', 'grove', 'hurst',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const CA_TOWNS = [
  'Toronto', 'Ottawa', 'Hamilton', 'London', 'Kitchener', 'Windsor', 'Oakville', 'Burlington',
  'Barrie', 'Sudbury', 'Kingston', 'Guelph', 'Waterloo', 'Brampton', 'Mississauga', 'Markham',
  'Vaughan', 'Richmond Hill', 'Oshawa', 'Whitby', 'Peterborough', 'Thunder Bay', 'Sault Ste. Marie',
  'Vancouver', 'Surrey', 'Burnaby', 'Richmond', 'Victoria', 'Kelowna', 'Kamloops', 'Nanaimo',
  'Prince George', 'Calgary', 'Edmonton', 'Red Deer', 'Lethbridge', 'Medicine Hat', 'Winnipeg',
  'Brandon', 'Regina', 'Saskatoon', 'Moose Jaw', 'Halifax', 'Dartmouth', 'Sydney', 'Truro', 'Moncton',
  'Saint John', 'Fredericton', "St. John's", 'Corner Brook', 'Charlottetown', 'Summerside',
  'Yellowknife', 'Iqaluit', 'Whitehorse',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const QC_TOWNS = [
  'Montréal', 'Québec', 'Trois-Rivières', 'Sherbrooke', 'Gatineau', 'Lévis', 'Saguenay', 'Rimouski',
  'Longueuil', 'Laval', 'Saint-Jérôme', 'Sainte-Foy', 'Chicoutimi', 'Rivière-du-Loup', "Val-d'Or",
  'Saint-Hyacinthe', 'Drummondville', 'Granby', 'Joliette', 'Victoriaville', 'Baie-Comeau',
  'Sept-Îles', 'Mont-Laurier', 'Thetford Mines', 'Beauport', 'Rouyn-Noranda', 'Terrebonne',
  'Repentigny', 'Brossard', 'Saint-Georges', 'Alma', 'Matane', 'Gaspé', 'Shawinigan', 'Sorel-Tracy',
  'Blainville', 'Mirabel', 'Châteauguay', 'Boucherville', 'Saint-Eustache',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const FAMOUS = [
  'Lincoln', 'Washington', 'Jefferson', 'Roosevelt', 'Kennedy', 'Franklin', 'Adams', 'Madison',
  'Jackson', 'Grant', 'Wilson', 'Garfield', 'Hamilton', 'Edison', 'Whitman', 'Longfellow', 'Emerson',
  'Thoreau', 'Hawthorne', 'Twain', 'Frost', 'Dickinson', 'Hughes', 'Douglass', 'Tubman', 'Parks',
  'King', 'Chavez', 'Carver', 'Keller', 'Earhart', 'Einstein', 'Curie', 'Armstrong', 'Glenn',
  'McAuliffe', 'Marshall', 'Truman', 'Eisenhower', 'Hoover', 'Coolidge', 'Taft', 'Polk', 'Harding',
  'Reagan', 'Clemente', 'Bethune', 'Anthony', 'Stanton', 'Steinbeck', 'Poe', 'Alcott', 'Irving',
  'Audubon', 'Muir', 'Monroe', 'Pershing', 'Lee', 'Houston', 'Crockett', 'Austin', 'Bowie', 'Travis',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const SURNAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez',
  'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Martin',
  'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker',
  'Young', 'Allen', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Baker',
  'Nelson', 'Carter', 'Mitchell', 'Roberts', 'Turner', 'Phillips', 'Campbell', 'Parker', 'Evans',
  'Edwards', 'Collins', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan', 'Peterson',
  'Cooper', 'Reed', 'Bailey', 'Bell', 'Gomez', 'Kelly', 'Howard', 'Ward', 'Cox', 'Diaz', 'Richardson',
  'Wood', 'Watson', 'Brooks', 'Bennett', 'Gray', 'James', 'Reyes', 'Cruz', 'Price', 'Myers', 'Long',
  'Foster', 'Sanders', 'Ross', 'Morales', 'Powell', 'Sullivan', 'Russell', 'Ortiz', 'Jenkins',
  'Gutierrez', 'Perry', 'Butler', 'Barnes', 'Fisher', 'Coleman', 'Simmons', 'Patterson', 'Jordan',
  'Reynolds', 'Graham', 'Kim', 'Alexander', 'Ramos', 'Wallace', 'Griffin', 'West', 'Cole', 'Hayes',
  'Gibson', 'Bryant', 'Ellis', 'Stevens', 'Murray', 'Ford', 'Owens', 'McDonald', 'Ruiz', 'Wells',
  'Alvarez', 'Woods', 'Mendoza', 'Castillo', 'Olson', 'Webb', 'Tucker', 'Freeman', 'Burns', 'Henry',
  'Vasquez', 'Snyder', 'Simpson', 'Crawford', 'Jimenez', 'Porter', 'Mason', 'Shaw', 'Gordon',
  'Wagner', 'Hunter', 'Romero', 'Hicks', 'Dixon', 'Hunt', 'Palmer', 'Robertson', 'Black', 'Holmes',
  'Stone', 'Meyer', 'Boyd', 'Mills', 'Warren', 'Fox', 'Rose', 'Rice', 'Moreno', 'Schmidt', 'Patel',
  'Ferguson', 'Nichols', 'Herrera', 'Medina', 'Ryan', 'Fernandez', 'Weaver', 'Daniels', 'Stephens',
  'Gardner', 'Payne', 'Kelley', 'Dunn', 'Pierce', 'Arnold', 'Tran', 'Spencer', 'Peters', 'Hawkins',
  'Hansen', 'Castro', 'Hoffman', 'Hart', 'Elliott', 'Cunningham', 'Knight', 'Bradley', "O'Brien",
  "O'Connor", 'MacArthur',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const FIRST_NAMES = [
  'John', 'James', 'Mary', 'Robert', 'Patricia', 'Michael', 'Linda', 'William', 'Elizabeth', 'David',
  'Barbara', 'Richard', 'Susan', 'Joseph', 'Thomas', 'Sarah', 'Charles', 'Nancy', 'Daniel', 'Margaret',
  'George', 'Helen', 'Martin', 'Rosa', 'Cesar', 'Thurgood', 'Sally', 'Neil', 'Amelia', 'Harriet',
  'Frederick', 'Booker', 'Benjamin', 'Eleanor', 'Clara', 'Walt', 'Henry', 'Ralph', 'Louisa', 'Edgar',
  'Langston', 'Maya', 'Sojourner', 'Jackie', 'Roberto', 'Sandra', 'Ruth', 'Dolores', 'Ellen', 'Grace',
];
/** Syllables of invented surnames: the rare, discriminating words of the catalog. */
// biome-ignore format: a word list, packed by hand to read as a list
export const SYLLABLES = [
  'ka', 'lo', 'ver', 'min', 'dal', 'ros', 'ten', 'bar', 'quin', 'zel', 'thor', 'wen', 'gar', 'lis',
  'mon', 'pra', 'sel', 'tor', 'vek', 'yor', 'zan', 'bri', 'cal', 'dro', 'fen', 'hul', 'jas', 'kor',
  'lum', 'nad', 'oss', 'pel', 'rak', 'sov', 'tal', 'ulm', 'vor', 'wyn', 'xan', 'yel',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const SAINTS = [
  'Mary', 'Joseph', 'John', 'Paul', 'Peter', 'Patrick', 'Francis', 'Anne', 'Anthony', 'Michael',
  'Thomas', 'James', 'Jude', 'Luke', 'Mark', 'Matthew', 'Theresa', 'Catherine', 'Elizabeth', 'Agnes',
  'Brigid', 'Monica', 'Vincent', 'Dominic', 'Benedict', 'Clare', 'Rose', 'Cecilia', 'Margaret',
  'Charles', 'Edward', 'Gregory', 'Ignatius', 'Lawrence', 'Pius', 'Rita', 'Stephen', 'Bernadette',
  'Columba', 'Kateri',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const DESCRIPTIVE = [
  'Pleasant Valley', 'Cedar Creek', 'Eagle Ridge', 'Sunrise', 'Meadowbrook', 'Prairie View',
  'Mountain View', 'Pine Grove', 'Liberty', 'Independence', 'Heritage', 'Discovery', 'Horizon',
  'Legacy', 'Pioneer', 'Frontier', 'Summit', 'Valley', 'Lakeside', 'Hillside', 'Central', 'Northside',
  'Southside', 'Westside', 'East Side', 'Twin Lakes', 'Deer Creek', 'Bear Creek', 'Rolling Hills',
  'Country Club', 'Harbor', 'Canyon', 'Desert Sky', 'Blue Ridge', 'Red Rock', 'Shady Grove',
  'Stonegate', 'Crossroads', 'Riverbend', 'Timberline',
];
export const US_KINDS = weighted<string>([
  ['Elementary School', 30],
  ['Elementary', 6],
  ['Middle School', 12],
  ['High School', 11],
  ['Junior High School', 2],
  ['Senior High School', 1.5],
  ['Primary School', 1.5],
  ['Intermediate School', 2],
  ['Academy', 4],
  ['Charter School', 2],
  ['Charter Academy', 1],
  ['Preparatory Academy', 1],
  ['Christian Academy', 1.5],
  ['Christian School', 1.5],
  ['Montessori School', 1],
  ['Learning Center', 1.5],
  ['Early Learning Center', 1],
  ['School', 4],
  ['Alternative School', 0.8],
  ['Magnet School', 0.8],
  ['School of the Arts', 0.4],
  ['Career Center', 0.8],
  ['Junior-Senior High School', 0.8],
  ['K-8 School', 1],
  ['Head Start', 0.8],
  ['Elementary and Middle School', 0.3],
  ['STEM Academy', 0.5],
  ['Virtual Academy', 0.5],
]);
export const CA_KINDS = weighted<string>([
  ['Public School', 10],
  ['Elementary School', 10],
  ['Secondary School', 8],
  ['Catholic Elementary School', 5],
  ['Catholic Secondary School', 3],
  ['Collegiate Institute', 2],
  ['Junior School', 1],
  ['Middle School', 3],
  ['High School', 4],
  ['Community School', 2],
  ['School', 3],
  ['Senior Public School', 1],
]);
// biome-ignore format: a word list, packed by hand to read as a list
export const FR_FIRST = [
  'Jean', 'Marie', 'Louis', 'Pierre', 'Joseph', 'François', 'Jacques', 'Paul', 'André', 'Marc',
  'Michel', 'Claude', 'Anne', 'Hélène', 'Geneviève', 'Thérèse', 'Cécile', 'Benoît', 'Rémi', 'Zoé',
  'Élise', 'Noémie', 'Émile', 'Félix', 'Gabrielle',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const FR_LAST = [
  'Tremblay', 'Gagnon', 'Roy', 'Côté', 'Bouchard', 'Gauthier', 'Morin', 'Lavoie', 'Fortin', 'Gagné',
  'Ouellet', 'Pelletier', 'Bélanger', 'Lévesque', 'Bergeron', 'Leblanc', 'Paquette', 'Girard',
  'Simard', 'Boucher', 'Caron', 'Beaulieu', 'Cloutier', 'Dubé', 'Poirier', 'Fournier', 'Lapointe',
  'Leclerc', 'Lefebvre', 'Poulin', 'Thibault', 'St-Pierre', 'Nadeau', 'Landry', 'Martel', 'Bédard',
  'Grenier', 'Lessard', 'Bernier', 'Michaud', 'Hébert', 'Desjardins', 'Couture', 'Turcotte',
  'Lachance', 'Parent', 'Blais', 'Gosselin', 'Savard', 'Proulx', 'Beaudoin', 'Demers', 'Perron',
  'Mercier', 'Lemieux', 'Vachon', 'Charbonneau', 'Deschênes', 'Brébeuf', 'Nelligan', 'Garneau',
];
// biome-ignore format: a word list, packed by hand to read as a list
export const FR_NAMED = [
  'Jean-de-Brébeuf', 'Saint-Joseph', 'Sainte-Thérèse', 'Marie-Victorin', 'Louis-Joseph-Papineau',
  'Pierre-Laporte', 'Notre-Dame', 'du Sacré-Cœur', 'Félix-Leclerc', 'Émile-Nelligan', 'Gabrielle-Roy',
  'Jacques-Cartier', 'Hélène-Boullé', 'Lionel-Groulx', 'François-Xavier-Garneau', 'André-Laurendeau',
  'Curé-Antoine-Labelle', 'Jeanne-Mance', 'Marguerite-Bourgeoys', 'Saint-Jean-Baptiste',
  'Sainte-Marie', 'Saint-Luc', 'Saint-François', 'Jean-XXIII', 'du Boisé', "de l'Érablière",
  'de la Cité', 'des Sources', 'Paul-Gérin-Lajoie', 'Honoré-Mercier', 'Georges-Vanier',
  'Pierre-Elliott-Trudeau', 'Anne-Hébert', 'Gilles-Vigneault', 'Louis-Riel', 'René-Lévesque',
  'Maurice-Richard', 'Joseph-François-Perrault', 'Antoine-de-Saint-Exupéry', 'Champlain', 'Frontenac',
  'Mgr-Bourget', 'Père-Marquette', 'Dollard-des-Ormeaux', 'Saint-Laurent', 'Armand-Frappier',
  'de la Rivière', 'de la Montagne', 'de la Source', 'de la Passerelle', 'de la Découverte',
  'des Érables', 'des Pionniers', 'des Trois-Saisons', 'des Bâtisseurs', 'des Explorateurs',
];
