/**
 * The modules serverless.yml leaves out of the function bundles: the AWS SDK clients the Lambda runtime ships
 * (S3, Secrets Manager), and the RDS signer unless the database login is IAM authentication
 * (--param="databaseIamAuth=true", or DATABASE_IAM_AUTH=true for local runs). The runtime lacks the signer, so
 * with IAM authentication it is bundled; without, it is never loaded, and leaving it out keeps ~410 KB of code
 * the function would only parse out of every bundle.
 */
module.exports = async ({ resolveVariable }) => {
  const iam = String((await resolveVariable("param:databaseIamAuth, env:DATABASE_IAM_AUTH, ''")) || '').trim();
  return ['@aws-sdk/client-s3', '@aws-sdk/client-secrets-manager', ...(iam === 'true' ? [] : ['@aws-sdk/rds-signer'])];
};
