/**
 * Word lists the demo data generator builds names, titles and texts from. Plain data, no logic. Some entries
 * carry apostrophes and non-ASCII letters on purpose, so escaping and encodings get exercised.
 */

/** [name, country, founded]: publisher 11 has no country, publisher 12 gets no books. */
const publishers: readonly (readonly [string, string | null, number | null])[] = [
  ['Harbour & Finch', 'GB', 1921],
  ['Northwind Press', 'US', 1948],
  ['Blue Heron Books', 'US', 1979],
  ['Éditions du Lac', 'FR', 1936],
  ['Kranich Verlag', 'DE', 1952],
  ['Saffron Street Publishing', 'IN', 1994],
  ['Maple Leaf House', 'CA', 1967],
  ['Southern Cross Books', 'AU', 1983],
  ['Tidewater Editions', 'US', 2001],
  ['Lindqvist & Berg', 'SE', 1911],
  ['Independent Pamphleteers', null, null],
  ['Quiet Hours Press', 'IE', 2015],
];

const firstNames = [
  'Ada',
  'Amara',
  'Ana',
  'Arjun',
  'Beatrix',
  'Carmen',
  'Clara',
  'Daniel',
  'Elena',
  'Émile',
  'Farah',
  'Felix',
  'Grace',
  'Hannah',
  'Hugo',
  'Ingrid',
  'Isaac',
  'Jonas',
  'José',
  'Jürgen',
  'Kenji',
  'Leila',
  'Lucía',
  'Marcus',
  'Margaret',
  'Mei',
  'Nadia',
  'Oliver',
  'Priya',
  'Rafael',
  'Rosa',
  'Samuel',
  'Seán',
  'Søren',
  'Tomasz',
  'Zoë',
] as const;

const lastNames = [
  'Abernathy',
  'Adeyemi',
  'Bergström',
  'Brennan',
  'Castillo',
  'Chen',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Haddad',
  'Ivanova',
  'Kowalski',
  'Lindqvist',
  'MacLeod',
  'Moreau',
  'Nakamura',
  "O'Connor",
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Schäfer',
  'Silva',
  'Takahashi',
  'Vargas',
  'Weber',
  'Whitfield',
  'Yilmaz',
  'Zieliński',
] as const;

const adjectives = [
  'Silent',
  'Golden',
  'Hidden',
  'Last',
  'Winter',
  'Crimson',
  'Quiet',
  'Forgotten',
  'Broken',
  'Distant',
  'Paper',
  'Restless',
  'Salt',
  'Midnight',
  'Burning',
  'Glass',
  'Wandering',
  'Northern',
  'Secret',
  'Little',
] as const;

const nouns = [
  'Garden',
  'Lighthouse',
  'Orchard',
  'Harbour',
  'Cartographer',
  'Archive',
  'Bridge',
  'Compass',
  'Island',
  'Letter',
  'Clockmaker',
  'River',
  'Observatory',
  'Tide',
  'Ledger',
  'Meadow',
  'Station',
  'Violin',
  'Kingdom',
  'Apprentice',
  'Storm',
  'Atlas',
  'Mirror',
  'Ferry',
] as const;

const places = [
  'Lisbon',
  'the North Sea',
  'Kyoto',
  'Marrakesh',
  'the Fens',
  'Valparaíso',
  'Tromsø',
  'the Old Quarter',
  'Galway',
  'Zürich',
  'the Delta',
  'Samarkand',
  'Brooklyn',
  'the Highlands',
] as const;

const titleTemplates = [
  'The {adj} {noun}',
  'The {noun} of {place}',
  'A {noun} in {place}',
  "{name}'s {noun}",
  'The {adj} {noun} of {place}',
  'Notes from {place}',
  'The Last {noun}',
  '{adj} Days in {place}',
] as const;

const summaryOpeners = [
  'A patient, luminous novel about',
  'A sharp, funny account of',
  'An unflinching history of',
  'A quiet, moving portrait of',
  'Letters, maps and recipes tell the story of',
] as const;

const summaryThemes = [
  'three generations of lighthouse keepers',
  'two rival cartographers and the coast they both claim',
  "a city that has forgotten its own founder's name",
  'the last ferry crossing before the bridge opens',
  'an orchard, a drought and a family secret',
  'a violin that changes hands seven times',
  'the night shift at a small observatory',
] as const;

const summaryClosers = [
  'Readers who loved the first chapter will not be disappointed.',
  "It's the kind of book you press into a friend's hands.",
  'Includes an afterword, notes and a reading guide.',
  'Now in paperback, with a new introduction.',
  'Shortlisted for three regional prizes.',
] as const;

/** Each follows the author's name. */
const bioOpeners = [
  'grew up by the sea and now lives in a city without one.',
  'has taught creative writing for twenty years.',
  'worked as a translator before turning to fiction.',
  'writes in the early morning, before anyone else wakes.',
  "is the author of several award-winning children's books.",
  'divides their time between two countries and three languages.',
] as const;

const bioClosers = [
  'Their work has been translated into eleven languages.',
  'This is their first book for adults.',
  'They are working on a new novel.',
  "Their essays appear in the city's literary magazines.",
  '',
] as const;

const handles = ['bookworm', 'nightreader', 'pageturner', 'inkwell', 'shelfie', 'marginalia', 'dogear'] as const;

const reviewLines = [
  "Couldn't put it down.",
  'Slow start, but the ending is worth it.',
  'Beautifully written, if a little long.',
  'The characters felt like old friends.',
  "Not for me: I didn't care about anyone in it.",
  'Read it in one sitting on a train.',
  'The translation is superb.',
  'Three stars for the plot, five for the prose.',
  'My book club argued about it for hours.',
  'A gift from my aunt & a lovely surprise.',
] as const;

const flagReasons = ['Contains spoilers', 'Off-topic', 'Possible spam', "Reviewer hasn't read the book"] as const;

export const DEMO_WORDS = {
  publishers,
  firstNames,
  lastNames,
  adjectives,
  nouns,
  places,
  titleTemplates,
  summaryOpeners,
  summaryThemes,
  summaryClosers,
  bioOpeners,
  bioClosers,
  handles,
  reviewLines,
  flagReasons,
} as const;
