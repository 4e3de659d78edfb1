/**
 * What Puppeteer's own debug() gets for `import('debug')` in the build (scripts/build.js,
 * puppeteerDebug): the `debug` package's logger factory, remembering each logger. Puppeteer
 * (common/Debug.js) calls the factory on every call of each of its loggers, and the protocol's
 * two loggers are called for every CDP message sent and received: a new logger each time
 * reads the DEBUG settings and asks whether stderr is a terminal (four system calls), for
 * nothing when logging is off. A remembered logger still follows DEBUG and debug.enable():
 * `enabled` is worked out again whenever the namespaces change.
 */
import createDebug from 'debug';

const loggers = new Map();

export default function rememberedDebug(namespace) {
  let logger = loggers.get(namespace);
  if (!logger) loggers.set(namespace, (logger = createDebug(namespace)));
  return logger;
}
