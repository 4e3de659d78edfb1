/**
 * Never finishes rendering: its render spins forever, so the page's main thread never comes
 * back (faults-stuck-page.test.ts). The exit no props can reach keeps the return reachable.
 */
export default function Loop({ title }: { title: string }) {
  while (title !== '\u0000unreachable') {
    // spin
  }
  return <h1>{title}</h1>;
}
