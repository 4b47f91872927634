/**
 * The change events' deploy params (docs/events.md#on-aws-lambda): --param="eventsWebhookUrl=https://..." with
 * --param="eventsWebhookSecretArn=arn:aws:secretsmanager:..." (the whsec_ secret, kept in Secrets Manager) deploy the
 * drain function, on a schedule; --param="eventsSource=..." sets the events' source. Pure: fills `out.events` (what
 * safe-deploy.js gives the drain function and its own role) and `out.environment`, or `out.errors`.
 */
const { isHttpsUrl, secretArnPattern } = require('./param-checks');

function eventsSettings(p, out) {
  const { eventsWebhookUrl: url, eventsWebhookSecretArn: arn, eventsSource: source } = p;
  if (source) out.environment.EVENTS_SOURCE = source;
  if (!url && !arn) return;
  if (!url || !arn) {
    out.errors.push(
      'Change events need both --param="eventsWebhookUrl=https://..." and --param="eventsWebhookSecretArn=arn:aws:secretsmanager:..." (the whsec_ secret the deliveries are signed with)',
    );
    return;
  }
  if (!isHttpsUrl(url)) out.errors.push(`eventsWebhookUrl must be an https:// URL, got "${url}"`);
  if (!secretArnPattern.test(arn))
    out.errors.push(
      'eventsWebhookSecretArn must be the whole ARN of a Secrets Manager secret, as describe-secret shows it ' +
        `(arn:aws:secretsmanager:eu-west-1:123456789012:secret:name-AbCdEf), got "${arn}"`,
    );
  out.events = { webhookUrl: url, webhookSecretArn: arn };
}

module.exports = { eventsSettings };
