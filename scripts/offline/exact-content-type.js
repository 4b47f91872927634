/**
 * A local serverless plugin for `serverless offline` only: hapi (inside serverless-offline) appends
 * `; charset=utf-8` to every application/json response, while API Gateway passes the handler's Content-Type
 * through unchanged and D12 promises exactly `application/json`. Before offline starts, this makes hapi keep a
 * Content-Type the handler set itself as it is. Deployed functions never load hapi; nothing else is changed.
 */
class ExactContentType {
  constructor() {
    this.hooks = { 'before:offline:start:init': () => patchHapi(), 'before:offline:start': () => patchHapi() };
  }
}

let patched = false;

function patchHapi() {
  if (patched) return;
  patched = true;
  const hapiMain = require.resolve('@hapi/hapi', { paths: [require.resolve('serverless-offline')] });
  const Response = require(require.resolve('./response', { paths: [require('node:path').dirname(hapiMain)] }));
  const original = Object.getOwnPropertyDescriptor(Response.prototype, 'contentType');
  Object.defineProperty(Response.prototype, 'contentType', {
    configurable: true,
    get() {
      const own = this.headers['content-type'];
      return typeof own === 'string' && /^application\/(json|xml)$/.test(own.trim())
        ? own.trim()
        : original.get.call(this);
    },
  });
}

module.exports = ExactContentType;
