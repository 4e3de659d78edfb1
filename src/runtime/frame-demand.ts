/**
 * Whether a render needs a screen frame before it is printed. A frame is what delivers
 * requestAnimationFrame callbacks and ResizeObserver and IntersectionObserver notifications
 * (a chart sizing itself to its container): a template that uses none of them is ready
 * without one, and waiting for one would only add its interval to every render. So the
 * runtime counts frame callbacks pending and observers observing, by wrapping the three APIs
 * before the template loads (the bundle imports this module first).
 */
const pending = new Set<number>();
const nativeRequestFrame = window.requestAnimationFrame.bind(window);
const nativeCancelFrame = window.cancelAnimationFrame.bind(window);

window.requestAnimationFrame = (callback) => {
  const id = nativeRequestFrame((time) => {
    pending.delete(id);
    callback(time);
  });
  pending.add(id);
  return id;
};
window.cancelAnimationFrame = (id) => {
  pending.delete(id);
  nativeCancelFrame(id);
};

/** Observers with at least one target: their reports come with frames. */
const observing = new Set<object>();
/** Observers that have been given a target and not reported since: a frame owes them one. */
const owed = new Set<object>();

if (typeof ResizeObserver === 'function') {
  const Native = ResizeObserver;
  window.ResizeObserver = class extends Native {
    constructor(callback: ResizeObserverCallback) {
      super((entries, observer) => {
        owed.delete(observer);
        callback(entries, observer);
      });
    }
    observe(target: Element, options?: ResizeObserverOptions) {
      observing.add(this);
      owed.add(this);
      super.observe(target, options);
    }
    disconnect() {
      observing.delete(this);
      owed.delete(this);
      super.disconnect();
    }
  };
}

if (typeof IntersectionObserver === 'function') {
  const Native = IntersectionObserver;
  window.IntersectionObserver = class extends Native {
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      super((entries, observer) => {
        owed.delete(observer);
        callback(entries, observer);
      }, options);
    }
    observe(target: Element) {
      observing.add(this);
      owed.add(this);
      super.observe(target);
    }
    disconnect() {
      observing.delete(this);
      owed.delete(this);
      super.disconnect();
    }
  };
}

export const frameDemand = {
  /** Whether a frame owes the template something: a callback to run, an observer's first report. */
  owed: () => pending.size > 0 || owed.size > 0,
  /** Whether the template waits on frames at all: also an observer that may report again. */
  wanted: () => pending.size > 0 || observing.size > 0,
  nextFrame: () => new Promise<void>((resolve) => nativeRequestFrame(() => resolve())),
};
