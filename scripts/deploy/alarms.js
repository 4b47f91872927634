/**
 * The CloudWatch alarms of --param="alarmTopicArn=...", as CloudFormation resources: the HTTP API's 5xx rate,
 * its p99 latency, and the throttles of the functions that reach the database (their reserved concurrency is
 * maxConcurrency). Each notifies the topic when it goes off and when it is back to OK. Pure: the plugin gives
 * the logical ids of the API and the functions.
 */

/**
 * @param {object} input
 * @param {string} input.prefix the alarms' name prefix: service-stage
 * @param {string} input.apiId the logical id of the AWS::ApiGatewayV2::Api
 * @param {string[]} input.functionIds the logical ids of the database functions (at most 9: one alarm, 10 metrics)
 * @param {{ topicArn: string, errorRatePercent: number, latencyMs: number }} input.alarms
 */
function alarmResources({ prefix, apiId, functionIds, alarms }) {
  const { topicArn, errorRatePercent, latencyMs } = alarms;
  const api = [{ Name: 'ApiId', Value: { Ref: apiId } }];
  const common = {
    AlarmActions: [topicArn],
    OKActions: [topicArn],
    // no requests, no data: nothing is wrong
    TreatMissingData: 'notBreaching',
    ComparisonOperator: 'GreaterThanThreshold',
  };
  const apiMetric = (id, name) => ({
    Id: id,
    MetricStat: { Metric: { Namespace: 'AWS/ApiGateway', MetricName: name, Dimensions: api }, Period: 60, Stat: 'Sum' },
    ReturnData: false,
  });
  const throttles = functionIds.map((fn, i) => ({
    Id: `t${i}`,
    MetricStat: {
      Metric: {
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: fn } }],
      },
      Period: 60,
      Stat: 'Sum',
    },
    ReturnData: false,
  }));
  return {
    ServerErrorRateAlarm: alarm({
      ...common,
      AlarmName: `${prefix}-5xx-rate`,
      AlarmDescription: `More than ${errorRatePercent}% of the API's responses were 5xx, in 3 of the last 5 minutes`,
      Metrics: [
        apiMetric('errors', '5xx'),
        apiMetric('requests', 'Count'),
        { Id: 'rate', Expression: '100 * errors / requests', Label: '5xx %', ReturnData: true },
      ],
      Threshold: errorRatePercent,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
    }),
    LatencyP99Alarm: alarm({
      ...common,
      AlarmName: `${prefix}-latency-p99`,
      AlarmDescription: `The API's p99 latency was over ${latencyMs} ms, in 3 of the last 5 periods of 5 minutes`,
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: api,
      ExtendedStatistic: 'p99',
      Period: 300,
      Threshold: latencyMs,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
    }),
    ThrottlesAlarm: alarm({
      ...common,
      AlarmName: `${prefix}-throttles`,
      AlarmDescription:
        'The functions that reach the database were throttled (at maxConcurrency, or the account limit): ' +
        'callers got errors',
      Metrics: [
        ...throttles,
        {
          Id: 'throttles',
          Expression: `SUM([${throttles.map((t) => t.Id).join(',')}])`,
          Label: 'Throttles',
          ReturnData: true,
        },
      ],
      Threshold: 0,
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
    }),
  };
}

function alarm(properties) {
  return { Type: 'AWS::CloudWatch::Alarm', Properties: properties };
}

module.exports = { alarmResources };
