/**
 * Lets the page runtime see React's commits, through the hook React DevTools uses: react-dom
 * calls `onCommitFiberRoot` after every commit, production builds included, and the root it
 * passes says whether more work is already scheduled (`pendingLanes`, an internal field: when
 * a React version lacks it, commits alone are counted). The hook must exist before react-dom
 * loads, so the bundle imports this module first (bundle-template.ts). A template can tamper
 * with it, but only its own page's readiness is at stake.
 */
interface CommittedRoot {
  pendingLanes?: number;
}

interface ActivityHook {
  supportsFiber: true;
  isDisabled: false;
  renderers: Map<number, unknown>;
  inject(renderer: unknown): number;
  onCommitFiberRoot(rendererId: number, root: CommittedRoot): void;
  onCommitFiberUnmount(): void;
  onPostCommitFiberRoot(): void;
  checkDCE(): void;
}

let commits = 0;
let lastRoot: CommittedRoot | undefined;

const scope = window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: ActivityHook };
if (scope.__REACT_DEVTOOLS_GLOBAL_HOOK__ === undefined) {
  const renderers = new Map<number, unknown>();
  scope.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers,
    inject(renderer) {
      const id = renderers.size + 1;
      renderers.set(id, renderer);
      return id;
    },
    onCommitFiberRoot(_rendererId, root) {
      commits++;
      lastRoot = root;
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
}

export const reactActivity = {
  /** Commits so far, of every root in the page. */
  commits: () => commits,
  /** Whether the root committed last has work scheduled that has not committed yet. */
  workPending: () => (lastRoot?.pendingLanes ?? 0) !== 0,
};
