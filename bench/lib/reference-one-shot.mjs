// The one-shot a user would write by hand, the benchmark's reference: one Node process that
// launches Chromium with puppeteer-core, sets the invoice's HTML, prints it to PDF and exits.
//   node bench/lib/reference-one-shot.mjs <page.html> <out.pdf>
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';

const [htmlFile, out] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.IMPRINT_BROWSER || '/usr/bin/chromium',
  // Chromium refuses to run as root with its sandbox on (containers, CI).
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  const page = await browser.newPage();
  await page.setContent(fs.readFileSync(htmlFile, 'utf8'), { waitUntil: 'load' });
  fs.writeFileSync(out, await page.pdf({ format: 'A4', printBackground: true }));
} finally {
  await browser.close();
}
