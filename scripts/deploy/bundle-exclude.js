/**
 * The modules serverless.yml leaves out of the function bundles: the AWS SDK clients the Lambda runtime ships
 * (S3, Secrets Manager; Lambda, which a write that announced change events invokes; EventBridge, SQS and SNS, the
 * drain's sinks); the RDS signer unless the database login is IAM authentication
 * (--param="databaseIamAuth=true", or DATABASE_IAM_AUTH=true for local runs); and the X-Ray tracer unless tracing
 * is on (--param="tracing=true", or POWERTOOLS_TRACE_ENABLED=true). The runtime has neither of the last two, so
 * when asked for they are bundled; otherwise the code never loads them, and leaving them out keeps code the
 * function would only parse out of every bundle (~410 KB and ~125 KB minified, a few ms of every cold start each).
 * jose is left out always: only verifying a token requires it (lib/auth/jose.ts), and on Lambda API Gateway's JWT
 * authorizer verifies every token before the handler, which only reads it; yet V8 parses its ~85 KB with the rest of
 * the bundle, ~2 ms of every cold start. (serverless-offline runs the bundles with the project's node_modules, where
 * it finds jose to verify tokens itself.)
 * With --param="engine=postgres" (or mysql) the other database drivers are left out too: bundle-define.js already
 * makes their code dead, and this keeps their packages from being installed next to the bundle (see engine.js).
 */
const { excludedDrivers } = require('./engine');

module.exports = async ({ resolveVariable }) => {
  const flag = async (variables) => String((await resolveVariable(`${variables}, ''`)) || '').trim() === 'true';
  const iam = await flag('param:databaseIamAuth, env:DATABASE_IAM_AUTH');
  const tracing = await flag('param:tracing, env:POWERTOOLS_TRACE_ENABLED');
  const drivers = excludedDrivers(await resolveVariable("param:engine, ''"));
  return [
    '@aws-sdk/client-s3',
    '@aws-sdk/client-secrets-manager',
    '@aws-sdk/client-lambda',
    '@aws-sdk/client-eventbridge',
    '@aws-sdk/client-sqs',
    '@aws-sdk/client-sns',
    ...(iam ? [] : ['@aws-sdk/rds-signer']),
    ...(tracing ? [] : ['@aws-lambda-powertools/tracer']),
    'jose',
    ...drivers,
  ];
};
