/**
 * The database URLs of a deployment: the URL params besides databaseUrl (more databases, read replicas), and the
 * check of every URL the functions will see, for its form and for a password. Pure. A URL may carry a password,
 * so no message ever repeats one: a URL is named by its param or variable, an entry of a list by its position.
 */
const { databaseSchemes } = require('./engine');

const docs = 'docs/deployment.md';
/** Query parameters that carry a password (`?password=`, `?sslpassword=`), which would land in the template. */
const passwordParam = /pass|secret|token/i;

/**
 * The database URL params besides databaseUrl (which serverless.yml puts in the environment itself):
 * databaseUrls="NAME=URL;..." (DATABASE_URL_<NAME>), databaseReadUrl (DATABASE_READ_URL) and
 * databaseReadUrls="NAME=URL;..." (DATABASE_READ_URL_<NAME>). Each becomes a variable, and is checked with the
 * others. An entry that is not NAME=URL is reported by its position, never by its text.
 */
function urlParams(p, fromEnvironment, out) {
  const urls = [];
  if (p.databaseReadUrl)
    urls.push({ name: 'DATABASE_READ_URL', value: p.databaseReadUrl, label: 'databaseReadUrl (DATABASE_READ_URL)' });
  for (const [param, prefix] of [
    ['databaseUrls', 'DATABASE_URL_'],
    ['databaseReadUrls', 'DATABASE_READ_URL_'],
  ]) {
    const entries = (p[param] || '').split(';').map((entry) => entry.trim());
    entries.forEach((entry, i) => {
      if (entry === '') return;
      const match = /^([A-Za-z0-9_]+)=(.+)$/.exec(entry);
      if (!match) {
        out.errors.push(
          `${param}: entry ${i + 1} is not NAME=URL (a name of letters, digits and _, entries separated by ";": ` +
            `--param="${param}=BOOKSTORE=postgres://user@host:5432/bookstore;SALES=mysql://user@host:3306/sales")`,
        );
        return;
      }
      const name = `${prefix}${match[1].toUpperCase()}`;
      urls.push({ name, value: match[2].trim(), label: `${param} (${name})` });
    });
  }
  const given = new Set(fromEnvironment.map(({ name }) => name));
  for (const { name, value } of urls) {
    if (given.has(name)) out.errors.push(`${name} is given twice`);
    given.add(name);
    out.environment[name] = value;
  }
  return urls;
}

/** The URLs that parse, each checked for a password; never the URL itself in a message. */
function checkUrls(urls, out) {
  const parsed = urls.map(({ name, value, label }) => ({ label: label || labelOf(name), url: parseUrl(value) }));
  for (const { label, url } of parsed) if (!url) out.errors.push(`${label} is not a database URL (${schemeList})`);
  const valid = parsed.filter((u) => u.url);
  for (const { label, url } of valid) if (carriesPassword(url)) out.errors.push(passwordRefused(label));
  return valid;
}

/** `postgres://, postgresql://, mysql:// or mariadb://` */
const schemeList = databaseSchemes
  .map((scheme) => `${scheme}//`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

function passwordRefused(label) {
  return (
    `${label} carries a password, which would be written into the functions' configuration, the ` +
    'CloudFormation template and .serverless/. Leave it out of the URL and sign in to the database with ' +
    '--param="databaseIamAuth=true" (RDS Proxy IAM authentication) or --param="databaseSecretArn=arn:..." ' +
    `(Secrets Manager). See ${docs}#database-credentials`
  );
}

function carriesPassword(url) {
  return url.password !== '' || [...url.searchParams.keys()].some((name) => passwordParam.test(name));
}

function labelOf(name) {
  return name === 'DATABASE_URL' ? 'databaseUrl (DATABASE_URL)' : name;
}

function isReadUrl(name) {
  return name.startsWith('DATABASE_READ_URL');
}

/** The URL, or undefined when it is not one of a database; never echoed, since it may hold a password. */
function parseUrl(value) {
  try {
    const url = new URL(value);
    return databaseSchemes.includes(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

module.exports = { checkUrls, isReadUrl, urlParams };
