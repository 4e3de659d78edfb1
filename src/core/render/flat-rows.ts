/**
 * Rows Chromium would flatten, grouped before a tagged print. A row of spans in a plain <div>
 * (a statement's line, a report's block) has no role of its own in Chromium's accessibility
 * tree, so its text runs become children of the nearest element that has one, often the
 * document itself; and Chromium's tagged print does work quadratic in the children one
 * structure element holds. Measured on a statement of flex rows under <body>
 * (bench/README.md, Tagged big documents): 84 pages printed in 5.9 s untagged and 113 s
 * tagged, 210 pages in 12 s and 641 s, every one of 14,400 text runs a child of Document.
 * With each row a group, 10.1 s at 84 pages: each row a Div structure element of its own runs,
 * which is also how a reader should meet it (a table, a list or a <section> per page does the
 * same, and this leaves them alone).
 *
 * Only rows among at least FLAT_ROW_SIBLINGS siblings are touched, so a document of every day
 * (an invoice's dozen lines) prints the tags it always did. A row is a <div> or <span> with no
 * role of its own, element children and no text of its own (a <div> with text keeps its own
 * structure element already). The page-side half is source text, as print-pdf.ts's page
 * scripts are; it returns what it grouped, for the caller to give back before the next render
 * on a warm page (ungroup), so a document's tags never depend on what the page printed before.
 */

/** From this many siblings, rows are grouped; below it nothing changes. */
export const FLAT_ROW_SIBLINGS = 50;

/** `(min) => Element[]`: sets role="group" on the flat rows and returns them. */
export const GROUP_FLAT_ROWS = `((min) => {
  const grouped = [];
  for (const parent of document.querySelectorAll('*')) {
    if (parent.childElementCount < min) continue;
    for (const row of parent.children) {
      if ((row.tagName !== 'DIV' && row.tagName !== 'SPAN') || row.hasAttribute('role') || row.childElementCount === 0) continue;
      if (Array.from(row.childNodes).some((node) => node.nodeType === 3 && node.textContent.trim() !== '')) continue;
      row.setAttribute('role', 'group');
      grouped.push(row);
    }
  }
  return grouped;
})`;

/** `(rows) => void`: the roles GROUP_FLAT_ROWS set, taken off again. */
export const UNGROUP_ROWS = `((rows) => { for (const row of rows) row.removeAttribute('role'); })`;
