/**
 * The Lambda VPC settings for serverless.yml: placed in the VPC of the RDS Proxy when both comma-separated
 * lists are given as params (--param="securityGroupIds=<sg-id>,<sg-id>" --param="subnetIds=<subnet-id>,<subnet-id>") or in
 * the environment (VPC_SECURITY_GROUP_IDS, VPC_SUBNET_IDS); outside any VPC otherwise.
 */
module.exports = async ({ resolveVariable }) => {
  const list = (value) =>
    String(value || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const securityGroupIds = list(await resolveVariable("param:securityGroupIds, env:VPC_SECURITY_GROUP_IDS, ''"));
  const subnetIds = list(await resolveVariable("param:subnetIds, env:VPC_SUBNET_IDS, ''"));
  return securityGroupIds.length && subnetIds.length ? { securityGroupIds, subnetIds } : null;
};
