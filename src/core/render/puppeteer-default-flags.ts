/**
 * The flags puppeteer.launch({ headless: true }) passes to Chromium (Puppeteer 25), which we
 * pass ourselves since we spawn Chromium before Puppeteer is loaded (launch-browser.ts). They
 * matter for printing: no throttling of background pages (the pool keeps several), sRGB
 * colours, the document outline. test/unit/core/render/puppeteer-default-flags.test.ts compares
 * this list with the installed Puppeteer's, so an upgrade that changes it fails a test, not a render.
 */
export const PUPPETEER_DEFAULT_FLAGS: readonly string[] = [
  '--allow-pre-commit-input',
  '--disable-background-networking',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-breakpad',
  '--disable-client-side-phishing-detection',
  '--disable-component-extensions-with-background-pages',
  '--disable-crash-reporter',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-hang-monitor',
  '--disable-infobars',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--disable-search-engine-choice-screen',
  '--disable-sync',
  '--enable-automation',
  '--export-tagged-pdf',
  '--force-color-profile=srgb',
  '--generate-pdf-document-outline',
  '--metrics-recording-only',
  '--no-first-run',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-features=Translate,AcceptCHFrame,MediaRouter,OptimizationHints,WebUIReloadButton,WebUIOmniboxPopup,WebUIOmniboxAimPopup,ProcessPerSiteUpToMainFrameThreshold,IsolateSandboxedIframes',
  '--enable-features=PdfOopif',
  '--headless=new',
  '--hide-scrollbars',
  '--mute-audio',
  '--disable-extensions',
];
