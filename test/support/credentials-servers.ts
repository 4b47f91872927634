/**
 * The password-checking database servers of the credentials tests, behind one small interface: MariaDB (the
 * shared test server of TEST_MYSQL_URL, which checks passwords) and a private PostgreSQL cluster
 * (credentials-postgres.ts; the shared PostgreSQL server trusts every login). Each makes a database with a table
 * and a login user of its own, changes that user's password (a rotation) and counts the user's sessions.
 */
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { postgresBinDir, startPrivatePostgres } from './credentials-postgres';
import { noteLeftOut, noteMissingTool, serverUrl, testServers } from './left-out';

export interface CheckingServer {
  readonly name: 'mariadb' | 'postgres';
  /** The engine of the RDS secret JSON. */
  readonly engine: string;
  readonly host: string;
  readonly port: number;
  readonly scheme: 'mysql' | 'postgres';
  /** A database holding table `t` with one row (1, 'first'), and a user who owns it, logging in with `password`. */
  createLogin(user: string, database: string, password: string): Promise<void>;
  setPassword(user: string, password: string): Promise<void>;
  sessions(user: string): Promise<number>;
  stop(): Promise<void>;
}

/** Passwords and tokens here are letters, digits and URL punctuation: never a quote, so literals are safe. */
const literal = (text: string) => {
  if (text.includes("'") || text.includes('\\')) throw new Error('a test password holds a quote');
  return `'${text}'`;
};

async function mariadb(adminUrl: string): Promise<CheckingServer> {
  const admin = await mysql.createConnection({ uri: adminUrl });
  const url = new URL(adminUrl);
  const made: { user: string; database: string }[] = [];
  return {
    name: 'mariadb',
    engine: 'mariadb',
    scheme: 'mysql',
    host: url.hostname,
    port: Number(url.port || 3306),
    async createLogin(user, database, password) {
      made.push({ user, database });
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.query(`CREATE TABLE ${database}.t (id INT PRIMARY KEY, name VARCHAR(20))`);
      await admin.query(`INSERT INTO ${database}.t VALUES (1, 'first')`);
      await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY ${literal(password)}`);
      await admin.query(`GRANT ALL ON ${database}.* TO '${user}'@'%'`);
    },
    async setPassword(user, password) {
      await admin.query(`ALTER USER '${user}'@'%' IDENTIFIED BY ${literal(password)}`);
    },
    async sessions(user) {
      const [rows] = await admin.query('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ?', [
        user,
      ]);
      return Number((rows as { n: number }[])[0]?.n);
    },
    async stop() {
      for (const { user, database } of made) {
        await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
        await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      }
      await admin.end();
    },
  };
}

async function privatePostgres(binDir: string): Promise<CheckingServer> {
  const cluster = await startPrivatePostgres(binDir);
  const admin = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
  return {
    name: 'postgres',
    engine: 'postgres',
    scheme: 'postgres',
    host: '127.0.0.1',
    port: cluster.port,
    async createLogin(user, database, password) {
      await admin.unsafe(`CREATE USER ${user} PASSWORD ${literal(password)}`);
      await admin.unsafe(`CREATE DATABASE ${database} OWNER ${user}`);
      const url = new URL(cluster.adminUrl);
      url.pathname = `/${database}`;
      const inDatabase = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await inDatabase.unsafe(`CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))`);
      await inDatabase.unsafe(`INSERT INTO t VALUES (1, 'first')`);
      await inDatabase.unsafe(`ALTER TABLE t OWNER TO ${user}`);
      await inDatabase.end();
    },
    async setPassword(user, password) {
      await admin.unsafe(`ALTER USER ${user} PASSWORD ${literal(password)}`);
    },
    async sessions(user) {
      const rows = await admin.unsafe('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [user]);
      return Number(rows[0]?.n);
    },
    async stop() {
      await admin.end();
      cluster.stop();
    },
  };
}

export interface CheckingServerChoice {
  readonly name: CheckingServer['name'];
  start(): Promise<CheckingServer>;
}

/**
 * The password-checking servers this run can use; the others are noted as left out for the run's summary:
 * MariaDB needs TEST_MYSQL_URL, the private PostgreSQL cluster needs PostgreSQL's server programs.
 */
export function checkingServers(): CheckingServerChoice[] {
  const choices: CheckingServerChoice[] = [];
  const mariadbServer = testServers.find((server) => server.name === 'mariadb');
  const mariadbUrl = mariadbServer && serverUrl(mariadbServer);
  if (mariadbUrl) choices.push({ name: 'mariadb', start: () => mariadb(mariadbUrl) });
  else if (mariadbServer) noteLeftOut([mariadbServer]);
  const binDir = postgresBinDir();
  if (binDir) choices.push({ name: 'postgres', start: () => privatePostgres(binDir) });
  else noteMissingTool('initdb and pg_ctl (a PostgreSQL server)', 'apt-get install postgresql');
  return choices;
}

export const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
