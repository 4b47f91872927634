/**
 * What an error body says with sign-in on (maskErrorText), case by case: locations relative to the definitions
 * folder, configured database servers and a driver's addresses as `***`, other absolute paths by their file name,
 * and the `driver message :: SQL` form kept. Pure.
 */

import { PrivilegesError } from '../../lib/auth/parse-privileges';
import { readConfig } from '../../lib/config';
import { ConfigurationError, DatabaseError, DefinitionError, NotFoundError, type ServiceError } from '../../lib/errors';
import { hiddenPlacesOf, maskErrorText } from '../../lib/http/mask-error-text';

const hidden = hiddenPlacesOf(
  readConfig({
    DEFINITIONS_DIR: '/srv/rrs/definitions',
    DATABASE_URL: 'postgres://app:pw@db.internal.example:5432/bookstore',
    DATABASE_URL_SALES: 'mysql://app@10.0.7.9:3306/sales',
    DATABASE_READ_URL: 'postgres://app@db:5433/bookstore',
  }),
);

describe('hiddenPlacesOf', () => {
  it('names the definitions folder and every configured server, host:port before host', () => {
    expect(hidden).toEqual({
      definitionsRoot: '/srv/rrs/definitions',
      hosts: ['db.internal.example:5432', 'db.internal.example', '10.0.7.9:3306', '10.0.7.9', 'db:5433', 'db'],
    });
  });

  it('takes an S3 location as the definitions folder', () => {
    const s3 = hiddenPlacesOf(readConfig({ DEFINITIONS_S3: 's3://bucket/prefix/' }));
    expect(s3).toEqual({ definitionsRoot: 's3://bucket/prefix', hosts: [] });
  });
});

describe('maskErrorText', () => {
  it.each<[string, ServiceError, string]>([
    [
      'the unknown resource: its file relative to the definitions folder',
      new NotFoundError(
        'resource_not_found',
        'SQL Resource shop.Nope not found - expected /srv/rrs/definitions/shop/Nope.xml',
      ),
      'SQL Resource shop.Nope not found - expected shop/Nope.xml',
    ],
    [
      'the unknown resource from S3',
      new NotFoundError('resource_not_found', 'SQL Resource Nope not found - expected s3://bucket/prefix/Nope.xml'),
      'SQL Resource Nope not found - expected s3://bucket/prefix/Nope.xml',
    ],
    [
      'a connection refused: the driver part masked, the statement kept',
      new DatabaseError(
        'database_unreachable',
        "connect ECONNREFUSED 10.0.3.7:5432 :: select item.item_id as id from item where item.item_id = '1.2.3.4' order by 1",
      ),
      "connect ECONNREFUSED *** :: select item.item_id as id from item where item.item_id = '1.2.3.4' order by 1",
    ],
    [
      'a host name from a secret, not from a URL',
      new DatabaseError(
        'database_unreachable',
        'getaddrinfo ENOTFOUND other.abc.eu-west-1.rds.amazonaws.com :: select 1',
      ),
      'getaddrinfo ENOTFOUND *** :: select 1',
    ],
    [
      'an IPv6 address',
      new DatabaseError('database_unreachable', 'connect ECONNREFUSED ::1:5432 :: select 1'),
      'connect ECONNREFUSED *** :: select 1',
    ],
    [
      'a configured server named in a configuration message',
      new DatabaseError(
        'database_unconfigured',
        'Resource shop.Book selects database shop, which does not exist on the server of DATABASE_URL (db.internal.example:5432); create it there',
      ),
      'Resource shop.Book selects database shop, which does not exist on the server of DATABASE_URL (***); create it there',
    ],
    [
      'a short host name only as a whole name',
      new DatabaseError('database_unconfigured', 'DATABASE_READ_URL (db:5433) has no database bookstore_db on db'),
      'DATABASE_READ_URL (***) has no database bookstore_db on ***',
    ],
    [
      'a broken definition: its file relative, the database error kept',
      new DefinitionError(
        '/srv/rrs/definitions/Item.xml',
        'its query fails on the database: relation "x" does not exist :: select 1',
      ),
      'Definition Item.xml is invalid: its query fails on the database: relation "x" does not exist :: select 1',
    ],
    [
      'an absolute path outside the definitions folder: its file name',
      new PrivilegesError('Privileges file /etc/rrs/privileges.properties, line 4: "Book.read": not a privilege'),
      'Privileges file privileges.properties, line 4: "Book.read": not a privilege',
    ],
    [
      'a file: URL',
      new ConfigurationError('The keys at file:///home/ops/.auth/jwks.json cannot be read'),
      'The keys at jwks.json cannot be read',
    ],
    [
      'an https URL is no file path',
      new ConfigurationError('The keys at https://issuer.example.com/.well-known/jwks.json cannot be fetched'),
      'The keys at https://issuer.example.com/.well-known/jwks.json cannot be fetched',
    ],
    [
      'a client error keeps the path it echoes',
      new NotFoundError('path_not_found', 'No such path: /x/res/Book; resources live under /res/{name}'),
      'No such path: /x/res/Book; resources live under /res/{name}',
    ],
    [
      'a dotted resource name in a database error that is not a connection failure',
      new DatabaseError('database_error', 'relation "bookstore.author" does not exist :: select 1'),
      'relation "bookstore.author" does not exist :: select 1',
    ],
  ])('%s', (_case, error, expected) => {
    expect(maskErrorText(error, hidden)).toBe(expected);
  });
});
