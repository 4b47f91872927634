/**
 * A fake AWS Secrets Manager on 127.0.0.1 for the credentials tests: it speaks the SDK's JSON protocol
 * (POST, `X-Amz-Target: secretsmanager.GetSecretValue`), answers each ARN with the SecretString the test set (or
 * with a service error), and counts the calls. The service's real SDK client reaches it through
 * AWS_ENDPOINT_URL_SECRETS_MANAGER, with fixed fake credentials (the SDK signs, nobody checks).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Answer = { readonly secretString: string } | { readonly error: string; readonly message: string };

export interface FakeSecretsManager {
  readonly endpoint: string;
  /** GetSecretValue calls so far, per ARN. */
  calls(arn: string): number;
  /** The region each call for `arn` was signed for (its SigV4 credential scope), in order. */
  regions(arn: string): string[];
  /** What GetSecretValue answers for `arn` from now on. */
  set(arn: string, answer: Answer): void;
  stop(): Promise<void>;
}

export async function startFakeSecretsManager(): Promise<FakeSecretsManager> {
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const signedFor = new Map<string, string[]>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const reply = (status: number, json: unknown, errorType?: string) => {
        res.writeHead(status, {
          'content-type': 'application/x-amz-json-1.1',
          ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
        });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue') {
        reply(
          400,
          { __type: 'UnknownOperationException', message: 'only GetSecretValue' },
          'UnknownOperationException',
        );
        return;
      }
      const arn = String((JSON.parse(body) as { SecretId?: unknown }).SecretId);
      counts.set(arn, (counts.get(arn) ?? 0) + 1);
      const scope = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(String(req.headers.authorization))?.[1] ?? '';
      signedFor.set(arn, [...(signedFor.get(arn) ?? []), scope]);
      const answer = answers.get(arn) ?? {
        error: 'ResourceNotFoundException',
        message: "Secrets Manager can't find the specified secret.",
      };
      if ('error' in answer) {
        reply(400, { __type: answer.error, message: answer.message }, answer.error);
        return;
      }
      reply(200, {
        ARN: arn,
        Name: arn.split(':').pop(),
        SecretString: answer.secretString,
        VersionId: `v${counts.get(arn)}`,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1_700_000_000,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: (arn) => counts.get(arn) ?? 0,
    regions: (arn) => signedFor.get(arn) ?? [],
    set: (arn, answer) => answers.set(arn, answer),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment that points the SDK at the fake, with fixed fake credentials and no profile or IMDS. */
export function fakeAwsEnv(endpoint: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
    AWS_ACCESS_KEY_ID: 'AKIDRRSTESTONLY00001',
    AWS_SECRET_ACCESS_KEY: 'rrs-test-secret-access-key-not-a-real-one',
    AWS_REGION: 'eu-west-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/nonexistent/rrs-aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/rrs-aws-credentials',
  };
}
