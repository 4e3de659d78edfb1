/**
 * A process that is not our child (a renderer, a server that daemonised): whether it is alive,
 * and its exit awaited by its pid within a deadline, since no 'exit' event reaches us for it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitForPidExit(pid: number, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (isAlive(pid)) {
    if (Date.now() > until) throw new Error(`renderer ${pid} still running after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
