/**
 * The change events' deploy params (docs/events.md#on-aws-lambda): one sink, which deploys the drain function on a
 * schedule, with a role of its own allowed exactly that sink:
 * - --param="eventsWebhookUrl=https://..." with --param="eventsWebhookSecretArn=arn:aws:secretsmanager:..." (the
 *   whsec_ secret, kept in Secrets Manager): secretsmanager:GetSecretValue on that secret;
 * - --param="eventsEventBridgeBus=name-or-ARN": events:PutEvents on that bus;
 * - --param="eventsSqsQueueUrl=https://sqs.REGION.amazonaws.com/ACCOUNT/NAME": sqs:SendMessage on that queue;
 * - --param="eventsSnsTopicArn=arn:aws:sns:...": sns:Publish on that topic.
 * --param="eventsSource=..." sets the events' source. Pure: fills `out.events` (the drain function's variables and
 * its role's one statement, which safe-deploy.js applies) and `out.environment`, or `out.errors`.
 */
const { isHttpsUrl, secretArnPattern } = require('./param-checks');

const sinkParams = ['eventsWebhookUrl', 'eventsEventBridgeBus', 'eventsSqsQueueUrl', 'eventsSnsTopicArn'];
const allow = (action, resource) => ({ Effect: 'Allow', Action: [action], Resource: resource });

function eventsSettings(p, out) {
  if (p.eventsSource) out.environment.EVENTS_SOURCE = p.eventsSource;
  const given = sinkParams.filter((name) => p[name]);
  if (given.length > 1) {
    out.errors.push(
      `Change events go to one sink; give one of ${given.map((name) => `--param="${name}=..."`).join(', ')}`,
    );
    return;
  }
  if (p.eventsWebhookSecretArn && given[0] !== 'eventsWebhookUrl')
    out.errors.push('eventsWebhookSecretArn applies only with --param="eventsWebhookUrl=https://..."');
  const sink = {
    eventsWebhookUrl: webhook,
    eventsEventBridgeBus: bus,
    eventsSqsQueueUrl: queue,
    eventsSnsTopicArn: topic,
  }[given[0]];
  if (sink) sink(p, out);
}

function webhook(p, out) {
  const { eventsWebhookUrl: url, eventsWebhookSecretArn: arn } = p;
  if (!arn) {
    out.errors.push(
      'Change events to a webhook need --param="eventsWebhookSecretArn=arn:aws:secretsmanager:..." too (the whsec_ secret the deliveries are signed with)',
    );
    return;
  }
  const before = out.errors.length;
  if (!isHttpsUrl(url)) out.errors.push(`eventsWebhookUrl must be an https:// URL, got "${url}"`);
  if (!secretArnPattern.test(arn))
    out.errors.push(
      'eventsWebhookSecretArn must be the whole ARN of a Secrets Manager secret, as describe-secret shows it ' +
        `(arn:aws:secretsmanager:eu-west-1:123456789012:secret:name-AbCdEf), got "${arn}"`,
    );
  if (out.errors.length > before) return;
  out.events = {
    environment: { EVENTS_WEBHOOK_URL: url, EVENTS_WEBHOOK_SECRET_ARN: arn },
    statement: allow('secretsmanager:GetSecretValue', arn),
  };
}

/** A bus by name (in the stack's account and region) or by ARN. */
function bus(p, out) {
  const name = p.eventsEventBridgeBus;
  const arn = /^arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:event-bus\/[\w.\-/]+$/.test(name) ? name : undefined;
  if (!arn && !/^[\w.\-/]{1,256}$/.test(name)) {
    out.errors.push(`eventsEventBridgeBus must be the name or the ARN of an event bus, got "${name}"`);
    return;
  }
  const resource = arn ?? {
    'Fn::Sub': `arn:\${AWS::Partition}:events:\${AWS::Region}:\${AWS::AccountId}:event-bus/${name}`,
  };
  out.events = { environment: { EVENTS_EVENTBRIDGE_BUS: name }, statement: allow('events:PutEvents', resource) };
}

function queue(p, out) {
  const url = p.eventsSqsQueueUrl;
  const match = /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/(\d{12})\/([\w-]{1,80}(?:\.fifo)?)$/.exec(url);
  if (!match) {
    out.errors.push(
      `eventsSqsQueueUrl must be the URL of a queue, as get-queue-url shows it (https://sqs.eu-west-1.amazonaws.com/123456789012/name), got "${url}"`,
    );
    return;
  }
  const [, region, account, name] = match;
  const arn = { 'Fn::Sub': `arn:\${AWS::Partition}:sqs:${region}:${account}:${name}` };
  out.events = { environment: { EVENTS_SQS_QUEUE_URL: url }, statement: allow('sqs:SendMessage', arn) };
}

function topic(p, out) {
  const arn = p.eventsSnsTopicArn;
  if (!/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w.-]+$/.test(arn)) {
    out.errors.push(
      `eventsSnsTopicArn must be the ARN of a topic (arn:aws:sns:eu-west-1:123456789012:name), got "${arn}"`,
    );
    return;
  }
  out.events = { environment: { EVENTS_SNS_TOPIC_ARN: arn }, statement: allow('sns:Publish', arn) };
}

module.exports = { eventsSettings };
