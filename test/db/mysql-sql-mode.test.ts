/**
 * Table tests of the sql_mode settings a MySQL connection is refused under, and of what the refusal says. Pure.
 */
import { refusedModes, sqlModeError } from '../../lib/db/mysql-sql-mode';

describe('refusedModes', () => {
  it.each([
    ['', []],
    ['STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION', []],
    ['NO_BACKSLASH_ESCAPES', ['NO_BACKSLASH_ESCAPES']],
    ['STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES', ['NO_BACKSLASH_ESCAPES']],
    ['REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI', ['ANSI_QUOTES']],
    ['ANSI_QUOTES,NO_BACKSLASH_ESCAPES', ['ANSI_QUOTES', 'NO_BACKSLASH_ESCAPES']],
    ['NO_BACKSLASH_ESCAPES_X', []],
  ])('%j refuses %j', (mode, refused) => {
    expect(refusedModes(mode)).toEqual(refused);
  });
});

describe('sqlModeError', () => {
  it('names the modes, says why, and gives the sql_mode without them', () => {
    expect(sqlModeError('STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES')).toMatchObject({
      status: 500,
      code: 'configuration_invalid',
      message:
        "The MySQL server runs with sql_mode NO_BACKSLASH_ESCAPES (NO_BACKSLASH_ESCAPES: a backslash in a value would be a plain character, so a value could be read as SQL): the service refuses to send it any statement. Leave it out of the server's sql_mode, e.g. SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES' and in the server's configuration",
    });
  });

  it('several modes, and ANSI (which holds ANSI_QUOTES) left out of the suggestion', () => {
    const message = sqlModeError('PIPES_AS_CONCAT,ANSI_QUOTES,ANSI,NO_BACKSLASH_ESCAPES').message;
    expect(message).toContain('sql_mode ANSI_QUOTES and NO_BACKSLASH_ESCAPES (');
    expect(message).toContain("Leave them out of the server's sql_mode, e.g. SET GLOBAL sql_mode = 'PIPES_AS_CONCAT'");
  });
});
