/**
 * What `serverless package` and `serverless deploy` check and add, from the deploy params (serverless.yml's
 * custom.deploy) and the database URLs of the functions' environment. Pure: the one question about the file
 * system (is the privileges file there?) is asked through `isFile`. scripts/deploy/safe-deploy.js applies the
 * result to the service; it must never print or store a database URL, which may carry a password.
 *
 * The result: `errors` (the package stops and prints them all), `warnings`, the `environment` variables to add,
 * the IAM `statements` to add to the functions' role, the JWT `authorizer` to put on every route (none when the
 * deployer chose auth=none), the files to `include` in every function's package, what
 * scripts/deploy/operating-settings.js decides of the network, limits, CORS, tracing and alarms, and what
 * scripts/deploy/events-settings.js decides of the change events' drain (`events`).
 */
const path = require('node:path');
const { checkUrls, isReadUrl, urlParams } = require('./database-urls');
const { checkEngine } = require('./engine');
const { eventsSettings } = require('./events-settings');
const { operatingSettings } = require('./operating-settings');
const { isHttpsUrl, secretArnPattern } = require('./param-checks');

const docs = 'docs/deployment.md';

/**
 * @param {object} input
 * @param {Record<string, unknown>} input.params the deploy params (custom.deploy), '' when not given
 * @param {{ name: string, value: string }[]} input.databaseUrls DATABASE_URL and DATABASE_URL_<NAME> as the
 *   functions will see them, the empty ones left out
 * @param {(relativePath: string) => boolean} input.isFile whether a path relative to the project is a file
 */
function deploySettings({ params, databaseUrls, isFile }) {
  const p = Object.fromEntries(Object.entries(params || {}).map(([k, v]) => [k, v == null ? '' : String(v).trim()]));
  const out = {
    errors: [],
    warnings: [],
    environment: {},
    statements: [],
    authorizer: undefined,
    include: [],
    reservedConcurrency: undefined,
    healthConcurrency: undefined,
    throttle: undefined,
    cors: undefined,
    tracing: false,
    alarms: undefined,
    events: undefined,
  };
  signIn(p, out, isFile);
  database(p, [...(databaseUrls || []), ...urlParams(p, databaseUrls || [], out)], out);
  operatingSettings(p, out);
  eventsSettings(p, out);
  return out;
}

function signIn(p, out, isFile) {
  const { auth, authIssuer, authAudience } = p;
  if (auth && auth !== 'none') {
    out.errors.push(`--param="auth=${auth}" is not understood: its only value is none (deploy without sign-in)`);
    return;
  }
  if (auth === 'none' && authIssuer) {
    out.errors.push('Give either --param="authIssuer=..." (sign-in) or --param="auth=none" (no sign-in), not both');
    return;
  }
  if (auth === 'none') return noSignIn(p, out);
  if (!authIssuer) {
    out.errors.push(
      [
        'Sign-in is not configured. Give the issuer and the audience of the tokens your callers send:',
        '  --param="authIssuer=https://your-issuer.example.com/" --param="authAudience=your-api"',
        'or, to deploy an API that anyone who can reach it may read and write, say so: --param="auth=none".',
        `See ${docs}#sign-in`,
      ].join('\n'),
    );
    return;
  }
  if (!isHttpsUrl(authIssuer))
    out.errors.push(`authIssuer must be the https:// URL of the issuer (the "iss" of its tokens), got "${authIssuer}"`);
  if (!authAudience)
    out.errors.push('authAudience is missing: give the audience ("aud") your tokens name: --param="authAudience=..."');
  out.authorizer = { issuerUrl: authIssuer, audience: authAudience };
  out.environment.AUTH_ISSUER = authIssuer;
  out.environment.AUTH_AUDIENCE = authAudience;
  if (p.authRolesClaim) out.environment.AUTH_ROLES_CLAIM = p.authRolesClaim;
  if (p.authAdminRole) out.environment.AUTH_ADMIN_ROLE = p.authAdminRole;
  if (p.privileges) privileges(p.privileges, out, isFile);
  else
    out.warnings.push(
      'Sign-in is on but no privileges file is given (--param="privileges=..."): every request will be refused ' +
        `with a 403 until you give one. See ${docs}#sign-in`,
    );
}

function noSignIn(p, out) {
  for (const name of ['authAudience', 'authRolesClaim', 'authAdminRole', 'privileges'])
    if (p[name]) out.errors.push(`${name} applies only with sign-in (authIssuer), and auth=none turns sign-in off`);
  out.warnings.push(
    'auth=none: this API has no sign-in. Anyone who can reach it can read, insert, update and delete every ' +
      'resource. Keep it in a private network, or deploy with --param="authIssuer=..." --param="authAudience=...".',
  );
}

/** A file packaged with the functions (a path inside the project), or an S3 object the functions may read. */
function privileges(location, out, isFile) {
  if (location.startsWith('s3://')) {
    const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
    if (!match || match[2].endsWith('/')) {
      out.errors.push(`privileges must be s3://bucket/key (one object), got "${location}"`);
      return;
    }
    out.environment.PRIVILEGES = location;
    out.statements.push({
      Effect: 'Allow',
      Action: ['s3:GetObject'],
      Resource: `arn:aws:s3:::${match[1]}/${match[2]}`,
    });
    return;
  }
  const relative = path.posix.normalize(location.split(path.sep).join('/'));
  if (path.isAbsolute(location) || relative === '..' || relative.startsWith('../')) {
    out.errors.push(
      'privileges must be a file inside the project, which is packaged with the functions, or s3://bucket/key; ' +
        `got "${location}"`,
    );
    return;
  }
  if (!isFile(relative)) {
    out.errors.push(`The privileges file ${relative} does not exist in the project folder`);
    return;
  }
  // Lambda runs in the package's root (/var/task), where the file is packaged under the same relative path
  out.environment.PRIVILEGES = relative;
  out.include.push(relative);
}

function database(p, urls, out) {
  const iam = p.databaseIamAuth;
  const secretArn = p.databaseSecretArn;
  if (iam && iam !== 'true' && iam !== 'false') out.errors.push(`databaseIamAuth must be true or false, got "${iam}"`);
  const useIam = iam === 'true';
  if (useIam && secretArn)
    out.errors.push('Choose one way to sign in to the database: databaseIamAuth=true or databaseSecretArn, not both');
  // a read URL alone is no database: writes go to the primary
  if (!urls.some(({ name }) => !isReadUrl(name)) && !secretArn) out.errors.push(noDatabase());
  const valid = checkUrls(urls, out);
  checkEngine(p.engine, valid, out);
  if (useIam) iamAuth(p, valid, out);
  else if (p.databaseProxyResourceId) out.errors.push('databaseProxyResourceId applies only with databaseIamAuth=true');
  if (secretArn) secret(p, out);
  else if (p.databaseSecretKmsKeyArn) out.errors.push('databaseSecretKmsKeyArn applies only with databaseSecretArn');
}

function noDatabase() {
  return [
    'No database is configured, so every request would fail. Give one of:',
    '  --param="databaseUrl=postgres://user@host:5432/db" (or mysql://...) with --param="databaseIamAuth=true"',
    '  --param="databaseSecretArn=arn:aws:secretsmanager:..."',
    `See ${docs}#database-credentials`,
  ].join('\n');
}

/** rds-db:connect as each user of the URLs, on the one proxy (no URL at all is already an error). */
function iamAuth(p, urls, out) {
  out.environment.DATABASE_IAM_AUTH = 'true';
  const proxy = p.databaseProxyResourceId;
  if (!proxy) {
    out.errors.push(
      'databaseIamAuth=true needs the resource id of the RDS Proxy: --param="databaseProxyResourceId=<prx-id>" ' +
        '(the last part of the proxy\'s ARN: aws rds describe-db-proxies --query "DBProxies[].DBProxyArn")',
    );
  } else if (!/^prx-[a-z0-9]+$/.test(proxy)) {
    out.errors.push(`databaseProxyResourceId must look like prx-0123456789abcdef0, got "${proxy}"`);
  }
  const users = [];
  for (const { label, url } of urls) {
    const user = decodeURIComponent(url.username);
    if (!user) out.errors.push(`${label} names no user: IAM authentication connects as the URL's user`);
    else if (!users.includes(user)) users.push(user);
  }
  if (!proxy || users.length === 0) return;
  out.statements.push({
    Effect: 'Allow',
    Action: ['rds-db:connect'],
    Resource: users.map((user) => ({
      // ${!...} keeps a literal "${" of a user name out of Fn::Sub's substitution
      'Fn::Sub': `arn:\${AWS::Partition}:rds-db:\${AWS::Region}:\${AWS::AccountId}:dbuser:${proxy}/${user.replaceAll('${', '${!')}`,
    })),
  });
}

/**
 * secretsmanager:GetSecretValue on that secret; kms:Decrypt only for a secret under a key of the team's own. The
 * ARN must be whole (with the 6 characters Secrets Manager appends to the name): IAM matches a policy against
 * the whole ARN, so a partial one would deploy a role that is refused the secret.
 */
function secret(p, out) {
  const arn = p.databaseSecretArn;
  const match = secretArnPattern.test(arn) ? arn.split(':') : undefined;
  if (!match) {
    out.errors.push(
      'databaseSecretArn must be the whole ARN of a Secrets Manager secret, as describe-secret shows it ' +
        `(arn:aws:secretsmanager:eu-west-1:123456789012:secret:name-AbCdEf), got "${arn}"`,
    );
    return;
  }
  out.environment.DATABASE_SECRET_ARN = arn;
  out.statements.push({ Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: arn });
  const key = p.databaseSecretKmsKeyArn;
  if (!key) return;
  if (!/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/.test(key)) {
    out.errors.push(`databaseSecretKmsKeyArn must be the ARN of a KMS key (arn:aws:kms:...:key/...), got "${key}"`);
    return;
  }
  out.statements.push({
    Effect: 'Allow',
    Action: ['kms:Decrypt'],
    Resource: key,
    Condition: { StringEquals: { 'kms:ViaService': `secretsmanager.${match[3]}.amazonaws.com` } },
  });
}

module.exports = { deploySettings };
