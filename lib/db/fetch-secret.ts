/**
 * Reads a Secrets Manager secret's text (GetSecretValue). It loads the AWS SDK's Secrets Manager client, so only
 * secret-source.ts requires it, and only when DATABASE_SECRET_ARN is set. The client is the SDK's own:
 * credentials from the Lambda role, the endpoint from AWS_ENDPOINT_URL_SECRETS_MANAGER / AWS_ENDPOINT_URL when set.
 * Failures name the ARN and what went wrong, never the secret.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DatabaseError } from '../errors';

/** One client per region, reused while the container is warm. */
const clients = new Map<string, SecretsManagerClient>();

/** The region is the ARN's fourth field: arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME. */
function regionOfArn(arn: string): string | undefined {
  const parts = arn.split(':');
  return parts[0] === 'arn' && parts[2] === 'secretsmanager' && parts[3] ? parts[3] : undefined;
}

function clientFor(region: string): SecretsManagerClient {
  let client = clients.get(region);
  if (!client) {
    // bounded well under API Gateway's 29-30 s: a Secrets Manager that cannot be reached answers in seconds
    client = new SecretsManagerClient({
      region,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 5000 },
    });
    clients.set(region, client);
  }
  return client;
}

/** The service's errors that mean the secret is not there for this role: a configuration to fix, not an outage. */
const configurationErrors = new Set([
  'ResourceNotFoundException',
  'AccessDeniedException',
  'DecryptionFailure',
  'InvalidParameterException',
  'InvalidRequestException',
  'UnrecognizedClientException',
  'ValidationException',
]);

/** `secret`: what it is and the variable that names it, for the messages (the database's login by default). */
export async function fetchSecret(
  arn: string,
  secret = { what: 'the database secret', variable: 'DATABASE_SECRET_ARN' },
): Promise<string | undefined> {
  const region = regionOfArn(arn);
  if (!region) {
    throw new DatabaseError(
      'database_unconfigured',
      `${secret.variable} is not a Secrets Manager secret ARN (arn:aws:secretsmanager:region:account:secret:name): ${arn}`,
    );
  }
  try {
    const answer = await clientFor(region).send(new GetSecretValueCommand({ SecretId: arn }));
    return answer.SecretString;
  } catch (error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    const what = [name, message].filter((part) => typeof part === 'string' && part).join(': ') || String(error);
    const code =
      typeof name === 'string' && configurationErrors.has(name) ? 'database_unconfigured' : 'database_unreachable';
    throw new DatabaseError(
      code,
      `Reading ${secret.what} ${arn} (${secret.variable}) from Secrets Manager failed: ${what}`,
      error,
    );
  }
}

/** Forgets the clients (tests that point AWS_ENDPOINT_URL elsewhere). */
export function forgetSecretsClients(): void {
  for (const client of clients.values()) client.destroy();
  clients.clear();
}
