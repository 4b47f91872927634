/** Checks of deploy params that more than one setting uses. Pure. */

/** A whole Secrets Manager secret ARN, as describe-secret shows it: IAM matches a policy against the whole ARN. */
const secretArnPattern = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[^\s:*?]+-[A-Za-z0-9]{6}$/;

function isHttpsUrl(value) {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

module.exports = { isHttpsUrl, secretArnPattern };
