/**
 * On Lambda, a write that announced events invokes the drain function at once (asynchronously: InvocationType
 * Event, so the write waits only for Lambda to accept the invocation), so that events usually arrive within seconds;
 * the drain's schedule is the backstop. At most one nudge a second per container: a drain that runs takes the
 * events of the writes that follow it too. It imports the AWS SDK's Lambda client, so only announce.ts requires
 * it, and only on Lambda with a drain function: functions whose resources announce nothing never load it. The
 * client takes its endpoint from AWS_ENDPOINT_URL_LAMBDA (tests).
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

const quietMs = 1000;
let client: LambdaClient | undefined;
let lastNudge = Number.NEGATIVE_INFINITY;

/** Invokes `functionName` asynchronously, unless this container did less than a second ago. */
export async function nudgeDrainFunction(functionName: string, region: string, now = Date.now()): Promise<void> {
  if (now - lastNudge < quietMs) return;
  lastNudge = now;
  // bounded: a nudge that cannot be delivered must not hold up the write's answer for long
  client ??= new LambdaClient({
    region,
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 2000 },
  });
  const payload = Buffer.from('{"nudge":true}');
  await client.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: payload }));
}

/** Tests: the next nudge goes out whenever it comes, through a client made afresh. */
export function forgetNudges(): void {
  lastNudge = Number.NEGATIVE_INFINITY;
  client?.destroy();
  client = undefined;
}
