/**
 * Dates, times and timestamps checked completely before any database sees them, since each database fails in
 * its own way on what it cannot take (PostgreSQL refuses year 0, MariaDB stores it; MariaDB cuts fractional
 * seconds its column cannot keep, PostgreSQL rounds them; PostgreSQL ignores or applies an offset, MariaDB
 * refuses it). The day must exist, years go from 0001 to 9999, no time zone, at most the fractional digits the
 * column keeps; trailing zeros beyond them are dropped. Pure.
 */
import type { Field } from '../resource';
import { Refusal } from './value-limits';

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
/** HH:MM[:SS[.fraction]], and a time zone that is matched only to say why it is refused. */
const timePattern = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** A date alone is midnight of that day. */
const timestampPattern = /^(\d{4}-\d{2}-\d{2})(?:[ T](.*))?$/s;

/** The most any database keeps: microseconds. */
const maxFraction = 6;

export function convertDate(text: string): string | Refusal {
  return checkDate(text) ?? text;
}

function checkDate(text: string): Refusal | undefined {
  const m = datePattern.exec(text);
  if (!m) return new Refusal();
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y === 0) return new Refusal('years go from 0001 to 9999');
  const probe = new Date(0);
  probe.setUTCFullYear(y, mo - 1, d); // not Date.UTC: it maps years 0-99 to 1900-1999
  const exists = probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
  return exists ? undefined : new Refusal();
}

/** 24:00[:00[.000000]] is the end of a day, for a time; no other time in hour 24. */
export function convertTime(field: Field, text: string): string | Refusal {
  return timeOfDay(field, text, 'time');
}

export function convertTimestamp(field: Field, text: string): string | Refusal {
  const m = timestampPattern.exec(text);
  if (!m) return new Refusal();
  const date = m[1] as string;
  const refused = checkDate(date);
  if (refused) return refused;
  const time = m[2] === undefined ? undefined : timeOfDay(field, m[2], 'timestamp');
  if (time instanceof Refusal) return time;
  const value = time === undefined ? date : `${date} ${time}`;
  return inRange(field, value) ?? value;
}

function timeOfDay(field: Field, text: string, kind: 'time' | 'timestamp'): string | Refusal {
  const m = timePattern.exec(text);
  if (!m) return new Refusal();
  if (m[5]) return new Refusal(`a ${kind} is written without a time zone`);
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const fraction = m[4] ?? '';
  const endOfDay = kind === 'time' && hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction);
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return new Refusal();
  if (fraction.length > maxFraction) return new Refusal(`at most ${maxFraction} digits of fractional seconds`);
  return keepFraction(field, text, fraction);
}

/** The fractional seconds the column keeps; zeros beyond them are dropped, any other digit refused. */
function keepFraction(field: Field, text: string, fraction: string): string | Refusal {
  const kept = field.limits?.fractionDigits ?? maxFraction;
  if (fraction.replace(/0+$/, '').length > kept) {
    const words =
      kept === 0 ? 'whole seconds only' : `at most ${kept} digit${kept === 1 ? '' : 's'} of fractional seconds`;
    return new Refusal(`${field.label} keeps ${words}`);
  }
  if (fraction.length <= kept) return text;
  const seconds = text.slice(0, text.length - fraction.length - 1);
  return kept === 0 ? seconds : `${seconds}.${fraction.slice(0, kept)}`;
}

/** `YYYY-MM-DD HH:MM:SS.ffffff`, so that timestamps compare as text. */
function fullTimestamp(value: string): string {
  const [date, time = '00:00:00'] = value.split(' ');
  const [clock = '', fraction = ''] = (time.length === 5 ? `${time}:00` : time).split('.');
  return `${date} ${clock}.${fraction.padEnd(maxFraction, '0')}`;
}

/** MySQL's TIMESTAMP type holds 1970 to 2038 only. */
function inRange(field: Field, value: string): Refusal | undefined {
  const { earliest, latest } = field.limits ?? {};
  if (earliest === undefined || latest === undefined) return undefined;
  const full = fullTimestamp(value);
  if (full >= fullTimestamp(earliest) && full <= fullTimestamp(latest)) return undefined;
  return new Refusal(`${field.label} holds ${earliest} to ${latest}`);
}
