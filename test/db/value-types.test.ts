/**
 * Table tests of what a column holds by its type name, as each catalog writes it (PostgreSQL's format_type,
 * MySQL's column_type): lengths, integer ranges, decimal digits, float precision, fractional seconds.
 */
import { mysqlLimits } from '../../lib/db/engines/mysql/mysql-value-types';
import { postgresLimits } from '../../lib/db/engines/postgres/postgres-value-types';
import type { ValueLimits, ValueType } from '../../lib/resource';

const int16 = { min: '-32768', max: '32767' };
const int32 = { min: '-2147483648', max: '2147483647' };
const int64 = { min: '-9223372036854775808', max: '9223372036854775807' };

describe('postgresLimits', () => {
  it.each<[string, ValueLimits | undefined]>([
    ['smallint', int16],
    ['integer', int32],
    ['bigint', int64],
    ['oid', { min: '0', max: '4294967295' }],
    ['numeric(8,2)', { digitsBefore: 6, digitsAfter: 2 }],
    ['numeric(3,-2)', { digitsBefore: 5, digitsAfter: -2 }],
    ['numeric(2,5)', { digitsBefore: -3, digitsAfter: 5 }],
    ['numeric', { digitsBefore: 131072, digitsAfter: 16383 }],
    ['real', { float: 'single' }],
    ['double precision', { float: 'double' }],
    ['character varying(45)', { maxLength: 45 }],
    ['character(1)', { maxLength: 1 }],
    ['"char"', { maxBytes: 1 }],
    ['time without time zone', { fractionDigits: 6 }],
    ['time(0) without time zone', { fractionDigits: 0 }],
    ['timestamp(3) without time zone', { fractionDigits: 3 }],
    ['timestamp(2) with time zone', { fractionDigits: 2 }],
    ['character varying', undefined],
    ['text', undefined],
    ['date', undefined],
    ['boolean', undefined],
    ['character varying(5)[]', undefined],
    ['integer[]', undefined],
    ['interval(2)', undefined],
    ['jsonb', undefined],
  ])('%s', (name, limits) => {
    expect(postgresLimits(name)).toEqual(limits);
  });
});

describe('mysqlLimits', () => {
  it.each<[ValueType, string, ValueLimits | undefined]>([
    ['boolean', 'tinyint(1)', undefined],
    ['integer', 'tinyint(4)', { min: '-128', max: '127' }],
    ['integer', 'tinyint(3) unsigned', { min: '0', max: '255' }],
    ['integer', 'smallint(6)', int16],
    ['integer', 'mediumint(8) unsigned', { min: '0', max: '16777215' }],
    ['integer', 'int(11)', int32],
    ['integer', 'int unsigned', { min: '0', max: '4294967295' }],
    ['integer', 'int(10) unsigned zerofill', { min: '0', max: '4294967295' }],
    ['integer', 'bigint(20)', int64],
    ['integer', 'bigint(20) unsigned', { min: '0', max: '18446744073709551615' }],
    ['integer', 'year(4)', { min: '1901', max: '2155' }],
    ['integer', 'YEAR', { min: '1901', max: '2155' }],
    ['decimal', 'decimal(8,2)', { digitsBefore: 6, digitsAfter: 2 }],
    ['decimal', 'decimal(65,30)', { digitsBefore: 35, digitsAfter: 30 }],
    ['decimal', 'decimal(5,2) unsigned', { digitsBefore: 3, digitsAfter: 2, min: '0' }],
    ['float', 'float', { float: 'single' }],
    ['float', 'double', { float: 'double' }],
    ['float', 'float(7,4)', { float: 'single', digitsBefore: 3, digitsAfter: 4 }],
    ['float', 'double unsigned', { float: 'double', min: '0' }],
    ['string', 'varchar(45)', { maxLength: 45 }],
    ['string', 'char(2)', { maxLength: 2 }],
    ['string', 'tinytext', { maxBytes: 255 }],
    ['string', 'text', { maxBytes: 65535 }],
    ['string', 'mediumtext', { maxBytes: 16777215 }],
    ['string', 'longtext', { maxBytes: 4294967295 }],
    ['binary', 'varbinary(100)', { maxBytes: 100 }],
    ['binary', 'binary(16)', { maxBytes: 16 }],
    ['binary', 'blob', { maxBytes: 65535 }],
    ['time', 'time', { fractionDigits: 0 }],
    ['time', 'time(3)', { fractionDigits: 3 }],
    ['timestamp', 'datetime', { fractionDigits: 0 }],
    ['timestamp', 'datetime(6)', { fractionDigits: 6 }],
    [
      'timestamp',
      'timestamp(3)',
      { fractionDigits: 3, earliest: '1970-01-01 00:00:01', latest: '2038-01-19 03:14:07.999999' },
    ],
    ['date', 'date', undefined],
    ['string', "enum('a','b')", undefined],
    ['string', 'json', undefined],
  ])('%s %s', (type, columnType, limits) => {
    expect(mysqlLimits(type, columnType)).toEqual(limits);
  });
});
