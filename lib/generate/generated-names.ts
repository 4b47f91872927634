/**
 * The names `npm run generate` gives what it writes, from table and column names that may hold any character:
 * resource names (letters and digits in PascalCase, the only characters a resource name shares with a file name
 * on every system; never a dot, which would make a folder), row and collection names, and field labels (plain
 * ASCII identifiers, so each is an XML attribute name and a JSON key as it is). Pure.
 */

/** The words of a name: split at anything but letters and digits and at lower-to-upper case changes, accents dropped. */
function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

/** `film_actor` → `FilmActor`; a name with no letter or digit left → `Table`. */
export function pascalName(name: string): string {
  const pascal = words(name)
    .map((w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase())
    .join('');
  return pascal === '' ? 'Table' : pascal;
}

/** `FilmActor`, `film actor` → `film_actor`: a row name, or a label for a column whose name is not one. */
export function snakeName(name: string): string {
  const snake = words(name)
    .map((w) => w.toLowerCase())
    .join('_');
  if (snake === '') return 'item';
  return /^[0-9]/.test(snake) ? `_${snake}` : snake;
}

/** The column's own name when it is an identifier as it is; else its snake_case form. */
export function fieldLabel(column: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(column) ? column : snakeName(column);
}

/** English plural of a row name, for collection names: `category` → `categories`, `address` → `addresses`. */
export function plural(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** `name`, or `name2`, `name3`... : the first that `taken` does not hold (compared without case), then taken. */
export function claimName(taken: Set<string>, name: string): string {
  let unique = name;
  for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${name}${n}`;
  taken.add(unique.toLowerCase());
  return unique;
}
