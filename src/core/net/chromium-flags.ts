/**
 * What a Chromium launch needs so that every connection a page can open goes through the
 * egress proxy. --proxy-server alone is not enough; each entry below closes a path that went
 * around it on the Chromium this project runs (Debian's, new headless mode), as
 * test/e2e/net-chromium.test.ts shows by turning each off.
 */

/** Flags that hold whatever the proxy's port is; add them to every launch that renders. */
export const EGRESS_LOCKDOWN_FLAGS: readonly string[] = [
  // Chromium sends localhost, *.localhost, 127/8, [::1], 169.254/16 and fe80::/10 DIRECT by
  // default: the "implicit bypass rules" of net/docs/proxy.md (since M72). <-loopback>
  // subtracts them, so http://127.0.0.1/ and http://169.254.169.254/ reach the proxy, which
  // denies them. Without it, WebTransport to a loopback address also sent QUIC (UDP) directly.
  '--proxy-bypass-list=<-loopback>',
  // QUIC (HTTP/3, WebTransport) is UDP, which an HTTP proxy never carries.
  '--disable-quic',
  // Chromium's own resolver answers nothing but the proxy's address: should a feature open a
  // connection by name outside the proxy (DNS prefetch, preconnect, a future API), it fails
  // instead of resolving, and no DNS query leaves from the browser. Proxied requests are
  // resolved by the proxy, so they are unaffected.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  // WebRTC's UDP does not use the HTTP proxy. This switch is honoured by headless-shell and
  // content embedders only; full Chromium (puppeteer's `headless: true`) reads the same
  // setting from the profile instead, hence EGRESS_PROFILE_PREFERENCES below. Kept for the
  // builds that read it.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** The complete flag set for a proxy listening on 127.0.0.1:port. */
export function egressChromiumArgs(proxyPort: number): string[] {
  return [`--proxy-server=http://127.0.0.1:${proxyPort}`, ...EGRESS_LOCKDOWN_FLAGS];
}

/**
 * Profile preferences (the `Default/Preferences` file of the user data dir) that new-headless
 * Chromium needs: with `disable_non_proxied_udp` WebRTC sends no UDP at all (no STUN, no
 * host candidates to peers) and falls back to TURN over TCP through the proxy, which checks
 * the address like any other. Without it a page's RTCPeerConnection sent STUN packets
 * straight to a loopback UDP port.
 */
export const EGRESS_PROFILE_PREFERENCES = {
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp' },
} as const;
