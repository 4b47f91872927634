/**
 * A local serverless plugin that makes `serverless package` and `serverless deploy` safe by default. Before
 * anything is built, it checks the deploy params (serverless.yml's custom.deploy) with
 * scripts/deploy/deploy-settings.js and stops with every problem it found: no sign-in unless auth=none was
 * chosen, no database at all, a password in a database URL, no VPC unless vpc=none was chosen, a malformed
 * issuer, ARN, id, origin or number. Then it adds what the params ask for:
 * - a JWT authorizer (the token in the Authorization header, checked against the issuer and audience) on every
 *   route of every function, except the open routes of custom.openRoutes (the health checks);
 * - the AUTH_*, PRIVILEGES, DATABASE_* and tuning variables to the functions' environment;
 * - IAM statements for exactly what the functions read: rds-db:connect as the proxy users, the one secret, the
 *   one privileges object;
 * - a privileges file inside the project to every function's package;
 * - change events (a sink's params): the drain function on a schedule, with a role of its own that alone may reach
 *   the sink; every other function may invoke it; without the params, no drain function;
 * - maxConcurrency as the reserved concurrency of custom.databaseFunctions, healthConcurrency (default 2) as that
 *   of the functions of the open routes, CORS, X-Ray tracing;
 * - once the template is compiled (before:package:finalize): the HTTP API stage's throttle (its default route
 *   settings, which every route of the stage takes; a default rate and burst without the params) and the alarms.
 * The first hook runs before `package:cleanup`, the first step of packaging, so it fails fast (before any bundle
 * is built) and its changes are in place when the role, the functions and the routes are compiled into the
 * CloudFormation template. `serverless deploy` runs the package steps, so it gets the same. `serverless deploy
 * function` gets the same checks, variables and packaged file (the role and the routes are the stack's). Other
 * commands (offline, print, invoke local) are left alone: local runs read AUTH_* from their own environment.
 */
const fs = require('node:fs');
const path = require('node:path');
const { alarmResources } = require('./alarms');
const { deploySettings } = require('./deploy-settings');

const authorizerName = 'signIn';
/** serverless.yml's change events drain: deployed only with the events params. */
const drainFunction = 'eventsDrain';
/** The Lambda runtime of serverless.yml, which serverless v3's configuration schema predates. */
const runtime = 'nodejs22.x';

class SafeDeploy {
  constructor(serverless, _options, { log } = {}) {
    this.serverless = serverless;
    this.log = log;
    allowRuntime(serverless);
    this.hooks = {
      'before:package:cleanup': () => this.apply({ wholeStack: true }),
      'before:deploy:function:initialize': () => this.apply({ wholeStack: false }),
      'before:package:finalize': () => this.finalize(),
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
    this.settings = settings;
    if (settings.errors.length > 0) throw new this.serverless.classes.Error(settings.errors.join('\n\n'));
    for (const warning of settings.warnings) this.warn(warning);
    service.provider.environment = { ...service.provider.environment, ...settings.environment };
    service.package = service.package || {};
    service.package.patterns = [...(service.package.patterns || []), ...settings.include];
    // the role and the API belong to the stack: `deploy function` updates one function's code and configuration
    if (!wholeStack) return;
    addStatements(service.provider, settings.statements);
    if (settings.authorizer) addAuthorizer(service, settings.authorizer, this.openRoutes());
    if (settings.reservedConcurrency !== undefined)
      for (const name of this.databaseFunctions())
        service.functions[name].reservedConcurrency = settings.reservedConcurrency;
    for (const name of this.openFunctions()) service.functions[name].reservedConcurrency = settings.healthConcurrency;
    if (settings.cors) service.provider.httpApi = { ...service.provider.httpApi, cors: settings.cors };
    if (settings.tracing) service.provider.tracing = { ...service.provider.tracing, lambda: true };
    this.applyEvents(service, settings.events);
  }

  /**
   * Change events: with a sink's params, the drain function runs every minute with the sink's variables, and every
   * function may invoke it (a write nudges it) and knows its name; without them, there is no drain
   * function at all. Its own role is made in finalize().
   */
  applyEvents(service, events) {
    const drain = service.functions?.[drainFunction];
    if (!drain) throw new this.serverless.classes.Error(`serverless.yml has no ${drainFunction} function`);
    if (!events) {
      delete service.functions[drainFunction];
      return;
    }
    const name = drain.name || `${service.service}-${this.serverless.getProvider('aws').getStage()}-${drainFunction}`;
    drain.environment = { ...drain.environment, ...events.environment };
    drain.events = [...(drain.events || []), { schedule: { rate: ['rate(1 minute)'] } }];
    // one drain publishes a database's outbox at a time (its lease): a second would find it taken
    drain.reservedConcurrency = 1;
    service.provider.environment = { ...service.provider.environment, EVENTS_DRAIN_FUNCTION: name };
    addStatements(service.provider, [
      {
        Effect: 'Allow',
        Action: ['lambda:InvokeFunction'],
        Resource: { 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${name}` },
      },
    ]);
    this.drainStatement = events.statement;
  }

  /**
   * The drain function's own role: the functions' role (logs, the VPC, the database's login), with its sink (the
   * webhook's secret, the bus, the queue or the topic), which no other function may reach, and without leave to
   * invoke the drain, which it never does.
   */
  drainRole(template, naming) {
    const shared = template.Resources.IamRoleLambdaExecution;
    const drain = template.Resources[naming.getLambdaLogicalId(drainFunction)];
    if (!shared || !drain) throw new this.serverless.classes.Error('The role or the drain function is missing');
    const role = JSON.parse(JSON.stringify(shared));
    const [policy] = role.Properties.Policies;
    policy.PolicyName = { 'Fn::Join': ['-', [this.serverless.service.service, 'drain', 'policy']] };
    policy.PolicyDocument.Statement = [
      ...policy.PolicyDocument.Statement.filter((s) => !s.Action.includes('lambda:InvokeFunction')),
      this.drainStatement,
    ];
    const roleName = role.Properties.RoleName;
    if (roleName?.['Fn::Join'])
      role.Properties.RoleName = { 'Fn::Join': ['-', [...roleName['Fn::Join'][1].slice(0, -1), 'drainRole']] };
    template.Resources.EventsDrainRole = role;
    drain.Properties.Role = { 'Fn::GetAtt': ['EventsDrainRole', 'Arn'] };
    drain.DependsOn = [...(drain.DependsOn || []).filter((id) => id !== 'IamRoleLambdaExecution'), 'EventsDrainRole'];
  }

  /** The stage's throttle and the alarms, into the compiled template: serverless v3's httpApi has neither. */
  finalize() {
    const settings = this.settings;
    if (!settings) return;
    const template = this.serverless.service.provider.compiledCloudFormationTemplate;
    const naming = this.serverless.getProvider('aws').naming;
    if (this.drainStatement) this.drainRole(template, naming);
    const stage = template.Resources[naming.getHttpApiStageLogicalId()];
    if (!stage) throw new this.serverless.classes.Error('The HTTP API stage is missing: it carries the throttle');
    stage.Properties.DefaultRouteSettings = {
      ...stage.Properties.DefaultRouteSettings,
      ThrottlingRateLimit: settings.throttle.rateLimit,
      ThrottlingBurstLimit: settings.throttle.burstLimit,
    };
    if (settings.alarms) {
      const service = this.serverless.service;
      Object.assign(
        template.Resources,
        alarmResources({
          prefix: `${service.service}-${this.serverless.getProvider('aws').getStage()}`,
          apiId: naming.getHttpApiLogicalId(),
          functionIds: this.databaseFunctions().map((name) => naming.getLambdaLogicalId(name)),
          alarms: settings.alarms,
        }),
      );
    }
  }

  /** custom.databaseFunctions: the functions that reach the database, each of which must exist. */
  databaseFunctions() {
    const names = this.serverless.service.custom?.databaseFunctions || [];
    const missing = names.filter((name) => !this.serverless.service.functions?.[name]);
    if (missing.length > 0)
      throw new this.serverless.classes.Error(`custom.databaseFunctions names no function ${missing.join(', ')}`);
    return names;
  }

  /**
   * The functions whose every route is open (the health checks, the explorer), which anyone may call. The mcp
   * function, with one open route (its metadata) beside /mcp, is not one of them.
   */
  openFunctions() {
    const open = this.openRoutes();
    return Object.entries(this.serverless.service.functions || {})
      .filter(([, fn]) => {
        const routes = (fn.events || []).filter((event) => event?.httpApi).map((event) => routeKey(event.httpApi));
        return routes.length > 0 && routes.every((route) => open.includes(route));
      })
      .map(([name]) => name);
  }

  /** custom.openRoutes: the routes left without the authorizer, each of which must be a route of a function. */
  openRoutes() {
    const open = (this.serverless.service.custom?.openRoutes || []).map(routeKey);
    const routes = Object.values(this.serverless.service.functions || {}).flatMap((fn) =>
      (fn.events || []).filter((event) => event?.httpApi).map((event) => routeKey(event.httpApi)),
    );
    const missing = open.filter((route) => !routes.includes(route));
    if (missing.length > 0)
      throw new this.serverless.classes.Error(`custom.openRoutes names no route ${missing.join(', ')}`);
    return open;
  }

  warn(message) {
    if (this.log) this.log.warning(message);
    else console.warn(`Warning: ${message}`);
  }
}

/**
 * DATABASE_URL, DATABASE_URL_<NAME>, DATABASE_READ_URL and DATABASE_READ_URL_<NAME>, from the provider's
 * environment and each function's, the empty left out.
 */
function databaseUrlsOf(service) {
  const seen = new Map();
  const environments = [
    service.provider.environment,
    ...Object.values(service.functions || {}).map((f) => f?.environment),
  ];
  for (const environment of environments)
    for (const [name, value] of Object.entries(environment || {}))
      if (/^DATABASE_(READ_)?URL(_\w+)?$/.test(name) && typeof value === 'string' && value.trim() !== '')
        seen.set(`${name}=${value}`, { name, value: value.trim() });
  return [...seen.values()];
}

function addStatements(provider, statements) {
  if (statements.length === 0) return;
  provider.iam = provider.iam || {};
  provider.iam.role = provider.iam.role || {};
  provider.iam.role.statements = [...(provider.iam.role.statements || []), ...statements];
}

function addAuthorizer(service, { issuerUrl, audience }, openRoutes) {
  service.provider.httpApi = service.provider.httpApi || {};
  const httpApi = service.provider.httpApi;
  httpApi.authorizers = {
    ...httpApi.authorizers,
    [authorizerName]: { type: 'jwt', identitySource: '$request.header.Authorization', issuerUrl, audience: [audience] },
  };
  for (const fn of Object.values(service.functions || {})) {
    fn.events = (fn.events || []).map((event) =>
      event?.httpApi && !openRoutes.includes(routeKey(event.httpApi))
        ? { ...event, httpApi: withAuthorizer(event.httpApi) }
        : event,
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

/** "GET /health" of a route in either form. */
function routeKey(route) {
  if (typeof route === 'object') return `${String(route.method).toUpperCase()} ${route.path}`;
  return String(route).trim().split(/\s+/).join(' ');
}

/**
 * serverless v3's configuration schema lists the Lambda runtimes up to nodejs20.x, and warns about a later one
 * on every command; Lambda, CloudFormation, serverless-esbuild and serverless-offline all take nodejs22.x. The
 * schema is the service's own copy, read when the configuration is validated, after the plugins are loaded.
 */
function allowRuntime(serverless) {
  const runtimes = serverless.configSchemaHandler?.schema?.definitions?.awsLambdaRuntime?.enum;
  if (Array.isArray(runtimes) && !runtimes.includes(runtime)) runtimes.push(runtime);
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

module.exports = SafeDeploy;
