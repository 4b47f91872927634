/**
 * The Lambda role's extra statements for serverless.yml: read access to the definitions in S3 when
 * --param="definitionsS3=s3://bucket/prefix" is given (D25): GetObject under the prefix, and ListBucket on the
 * bucket. ListBucket carries no s3:prefix condition on purpose: S3 answers a GetObject of a missing key with 404
 * only when the caller may list the bucket, and that check has no prefix to match, so a condition would turn
 * every unknown resource name into a 403 (a 500 here) instead of the D3 404. None without the param.
 */
module.exports = async ({ resolveVariable }) => {
  const uri = String((await resolveVariable("param:definitionsS3, env:DEFINITIONS_S3, ''")) || '');
  const match = /^s3:\/\/([^/]+)\/*(.*?)\/*$/.exec(uri);
  if (!match) return [];
  const [, bucket, prefix] = match;
  const objects = prefix ? `${prefix}/*` : '*';
  return [
    { Effect: 'Allow', Action: ['s3:GetObject'], Resource: `arn:aws:s3:::${bucket}/${objects}` },
    { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: `arn:aws:s3:::${bucket}` },
  ];
};
