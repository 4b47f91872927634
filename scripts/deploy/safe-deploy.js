/**
 * A local serverless plugin that makes `serverless package` and `serverless deploy` safe by default. Before
 * anything is built, it checks the deploy params (serverless.yml's custom.deploy) with
 * scripts/deploy/deploy-settings.js and stops with every problem it found: no sign-in unless auth=none was
 * chosen, no database at all, a password in a database URL, a malformed issuer, ARN or proxy id. Then it adds
 * what the params ask for:
 * - a JWT authorizer (the token in the Authorization header, checked against the issuer and audience) on every
 *   route of every function;
 * - the AUTH_*, PRIVILEGES, DATABASE_IAM_AUTH and DATABASE_SECRET_ARN variables to the functions' environment;
 * - IAM statements for exactly what the functions read: rds-db:connect as the proxy user, the one secret, the
 *   one privileges object;
 * - a privileges file inside the project to every function's package.
 * The hook runs before `package:cleanup`, the first step of packaging, so it fails fast (before any bundle is
 * built) and its changes are in place when the role, the functions and the routes are compiled into the
 * CloudFormation template. `serverless deploy` runs the package steps, so it gets the same. `serverless deploy
 * function` gets the same checks, variables and packaged file (the role and the routes are the stack's). Other
 * commands (offline, print, invoke local) are left alone: local runs read AUTH_* from their own environment.
 */
const fs = require('node:fs');
const path = require('node:path');
const { deploySettings } = require('./deploy-settings');

const authorizerName = 'signIn';

class SafeDeploy {
  constructor(serverless, _options, { log } = {}) {
    this.serverless = serverless;
    this.log = log;
    this.hooks = {
      'before:package:cleanup': () => this.apply({ wholeStack: true }),
      'before:deploy:function:initialize': () => this.apply({ wholeStack: false }),
    };
  }

  apply({ wholeStack }) {
    if (this.applied) return;
    this.applied = true;
    const service = this.serverless.service;
    const serviceDir = this.serverless.serviceDir;
    const settings = deploySettings({
      params: service.custom?.deploy,
      databaseUrls: databaseUrlsOf(service),
      isFile: (relative) => isFile(path.join(serviceDir, relative)),
    });
    if (settings.errors.length > 0) throw new this.serverless.classes.Error(settings.errors.join('\n\n'));
    for (const warning of settings.warnings) this.warn(warning);
    service.provider.environment = { ...service.provider.environment, ...settings.environment };
    service.package = service.package || {};
    service.package.patterns = [...(service.package.patterns || []), ...settings.include];
    // the role and the API belong to the stack: `deploy function` updates one function's code and configuration
    if (!wholeStack) return;
    addStatements(service.provider, settings.statements);
    if (settings.authorizer) addAuthorizer(service, settings.authorizer);
  }

  warn(message) {
    if (this.log) this.log.warning(message);
    else console.warn(`Warning: ${message}`);
  }
}

/** DATABASE_URL and DATABASE_URL_<NAME>, from the provider's environment and each function's, the empty left out. */
function databaseUrlsOf(service) {
  const seen = new Map();
  const environments = [
    service.provider.environment,
    ...Object.values(service.functions || {}).map((f) => f?.environment),
  ];
  for (const environment of environments)
    for (const [name, value] of Object.entries(environment || {}))
      if (/^DATABASE_URL(_\w+)?$/.test(name) && typeof value === 'string' && value.trim() !== '')
        seen.set(`${name}=${value}`, { name, value: value.trim() });
  return [...seen.values()];
}

function addStatements(provider, statements) {
  if (statements.length === 0) return;
  provider.iam = provider.iam || {};
  provider.iam.role = provider.iam.role || {};
  provider.iam.role.statements = [...(provider.iam.role.statements || []), ...statements];
}

function addAuthorizer(service, { issuerUrl, audience }) {
  service.provider.httpApi = service.provider.httpApi || {};
  const httpApi = service.provider.httpApi;
  httpApi.authorizers = {
    ...httpApi.authorizers,
    [authorizerName]: { type: 'jwt', identitySource: '$request.header.Authorization', issuerUrl, audience: [audience] },
  };
  for (const fn of Object.values(service.functions || {})) {
    fn.events = (fn.events || []).map((event) =>
      event?.httpApi ? { ...event, httpApi: withAuthorizer(event.httpApi) } : event,
    );
  }
}

/** The route in its object form, with the authorizer; a route that already names an authorizer keeps it. */
function withAuthorizer(route) {
  if (typeof route === 'object') return route.authorizer ? route : { ...route, authorizer: { name: authorizerName } };
  const text = String(route).trim();
  if (text === '*') return { method: '*', path: '*', authorizer: { name: authorizerName } };
  const [method, routePath] = text.split(/\s+/);
  return { method, path: routePath, authorizer: { name: authorizerName } };
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

module.exports = SafeDeploy;
