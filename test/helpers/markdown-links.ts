/**
 * The links of a markdown page and the anchors GitHub gives its headings, for the test that
 * every link in README.md and docs/ reaches a file the package ships. The pages use inline
 * links only (`[text](target)`, no reference definitions or HTML), so a few lines do: code
 * fences and code spans are left out, since a `[x](y)` inside them is not a link.
 */

export interface MarkdownLink {
  /** 1-based line of the link, for messages. */
  line: number;
  target: string;
}

/** The page's lines with code fences blanked (lines kept, so line numbers still hold). */
function linesOutsideFences(markdown: string): string[] {
  let inFence = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  linesOutsideFences(markdown).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line: index + 1, target: match[1] });
  });
  return links;
}

/** The anchors of the page's headings as GitHub makes them: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
