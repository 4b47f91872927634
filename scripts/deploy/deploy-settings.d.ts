/**
 * The types of deploy-settings.js (plain JavaScript, since serverless loads it without a build), for its
 * TypeScript tests. Declarations only.
 */

export interface DeploySettingsInput {
  /** The deploy params (serverless.yml's custom.deploy); a param that was not given is ''. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** DATABASE_URL, DATABASE_URL_<NAME>, DATABASE_READ_URL[_<NAME>] of the functions' environment, the empty left out. */
  readonly databaseUrls: readonly { readonly name: string; readonly value: string }[];
  /** Whether a path relative to the project folder is a file. */
  readonly isFile: (relativePath: string) => boolean;
}

export interface IamStatement {
  readonly Effect: string;
  readonly Action: readonly string[];
  readonly Resource: unknown;
  readonly Condition?: unknown;
}

export interface DeploySettings {
  readonly errors: string[];
  readonly warnings: string[];
  readonly environment: Record<string, string>;
  readonly statements: IamStatement[];
  readonly authorizer: { readonly issuerUrl: string; readonly audience: string } | undefined;
  readonly include: string[];
  /** maxConcurrency: the reserved concurrency of each function that reaches the database. */
  readonly reservedConcurrency: number | undefined;
  /** healthConcurrency: the reserved concurrency of the functions of the open routes (default 2). */
  readonly healthConcurrency: number;
  /** The HTTP API stage's throttle, for every route: requests per second and burst (default 500 and 1000). */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** serverless v3's provider.httpApi.cors. */
  readonly cors: CorsSettings | undefined;
  /** X-Ray tracing of the functions. */
  readonly tracing: boolean;
  readonly alarms: AlarmSettings | undefined;
  /** Change events: the drain function's variables and its role's statement for its sink, when a sink is given. */
  readonly events: { readonly environment: Record<string, string>; readonly statement: IamStatement } | undefined;
}

export interface CorsSettings {
  readonly allowedOrigins: readonly string[];
  readonly allowedHeaders: readonly string[];
  readonly allowedMethods: readonly string[];
  readonly exposedResponseHeaders: readonly string[];
  readonly maxAge: number;
}

export interface AlarmSettings {
  readonly topicArn: string;
  /** The 5xx share of the responses (percent) above which the alarm goes off. */
  readonly errorRatePercent: number;
  /** The p99 latency (ms) above which the alarm goes off. */
  readonly latencyMs: number;
}

export function deploySettings(input: DeploySettingsInput): DeploySettings;
