/**
 * Whether two services answered the same rows, for a benchmark that compares a peer with the service: the peer's
 * field names are camelCase (bookId) where the service's are the query's columns (book_id, or an alias such as
 * id), and the two write some values differently in JSON (13.95 or "13.95", true or 1, 1993-09-12 or
 * 1993-09-12T00:00:00.000Z). Values are compared once written one way; every field of the peer's rows must be in the
 * service's (the service may answer more: computed columns). Pure.
 */
export type Row = Record<string, unknown>;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE_TIME = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d:\d\d)(\.\d+)?Z?)?$/;

/** A value written one way: numbers by value, booleans as 1/0, dates without a midnight time, no `T` or `Z`. */
export function canonical(value: unknown): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'undefined';
  if (NUMBER.test(value)) return String(Number(value));
  const dateTime = DATE_TIME.exec(value);
  if (!dateTime) return value;
  const [, date, time, fraction] = dateTime;
  const fractionDigits = (fraction ?? '').replace(/\.?0+$/, '');
  return time === undefined || (time === '00:00:00' && fractionDigits === '')
    ? `${date}`
    : `${date} ${time}${fractionDigits}`;
}

/**
 * The differences between the service's rows and the peer's, in order (empty when they are the same rows); `rename`
 * names the service's field for a peer field (snake_case) that the service's query renames (book_id: 'id').
 */
export function rowDifferences(ours: readonly Row[], peer: readonly Row[], rename: Readonly<Record<string, string>>) {
  const differences: string[] = [];
  if (ours.length !== peer.length) differences.push(`${ours.length} rows against the peer's ${peer.length}`);
  peer.forEach((peerRow, at) => {
    for (const [field, value] of Object.entries(peerRow)) {
      const column = snakeCase(field);
      const ourValue = ours[at]?.[rename[column] ?? column];
      if (canonical(ourValue) !== canonical(value))
        differences.push(
          `row ${at + 1} ${column}: ${JSON.stringify(ourValue)} against the peer's ${JSON.stringify(value)}`,
        );
    }
  });
  return differences;
}
