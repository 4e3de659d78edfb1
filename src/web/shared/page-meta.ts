/** A value the server wrote into the page's head (`<meta name="..." content="...">`): how a page learns its asset URLs. */
export function pageMeta(name: string): string {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  if (!content) throw new Error(`The page has no <meta name="${name}">: it was not served by this version of Imprint.`);
  return content;
}
