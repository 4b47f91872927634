/**
 * Per-target lifecycle for integration tests: a fresh database with the test schema, the service pointed at it,
 * the test data restored before each test.
 */
import { closeDatabases } from '../../lib/db/select-database';
import type { Target, TestDatabase } from './databases';
import { testData, testSchema } from './schema';
import { testDefinitions, useService } from './service';

export interface Fixture {
  db: TestDatabase;
  count(table: string, where?: string): Promise<number>;
}

/** In dependency order: referencing tables first. */
const tables = [
  'item_ext',
  'item',
  'pair',
  'loose',
  'widget',
  'event_log',
  'fan',
  'team_tag',
  'tag_ext',
  'tag',
  'player_ext',
  'player',
  'team_ext',
  'team',
];

export function useFixture(target: Target): Fixture {
  const fixture = {} as Fixture;
  beforeAll(async () => {
    fixture.db = await target.create();
    for (const statement of testSchema(target.engine)) await fixture.db.exec(statement);
    fixture.count = async (table, where) => {
      const rows = await fixture.db.exec(`SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where}` : ''}`);
      return Number(rows[0]?.n);
    };
    await useService({ DATABASE_URL: fixture.db.url, DEFINITIONS_DIR: testDefinitions });
  });
  beforeEach(async () => {
    for (const table of tables) await fixture.db.exec(`DELETE FROM ${table}`);
    for (const statement of testData(target.engine)) await fixture.db.exec(statement);
  });
  afterAll(async () => {
    await closeDatabases();
    await fixture.db?.drop();
  });
  return fixture;
}
