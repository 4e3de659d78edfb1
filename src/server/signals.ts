/**
 * Graceful shutdown: the first SIGTERM or SIGINT resolves, so the caller can stop accepting
 * requests and let those in progress finish. The handlers are `once`: a second signal gets
 * the default behaviour and ends the process at once (Ctrl-C twice to force).
 */
export type ShutdownSignal = 'SIGTERM' | 'SIGINT';

export function waitForShutdownSignal(): Promise<ShutdownSignal> {
  return new Promise((resolve) => {
    const signals: ShutdownSignal[] = ['SIGTERM', 'SIGINT'];
    const handlers = signals.map((signal) => {
      const handler = () => {
        // Drop the other signal's handler too, so a second signal of either kind forces.
        handlers.forEach(([name, other]) => name !== signal && process.off(name, other));
        resolve(signal);
      };
      process.once(signal, handler);
      return [signal, handler] as const;
    });
  });
}
