/**
 * The types of deploy-settings.js (plain JavaScript, since serverless loads it without a build), for its
 * TypeScript tests. Declarations only.
 */

export interface DeploySettingsInput {
  /** The deploy params (serverless.yml's custom.deploy); a param that was not given is ''. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** DATABASE_URL and DATABASE_URL_<NAME> as the functions will see them, the empty ones left out. */
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
}

export function deploySettings(input: DeploySettingsInput): DeploySettings;
