/**
 * The `<Field>`s of the rendered document, read from their boxes once the render has settled:
 * each box carries its description as JSON (FIELD_SPEC_ATTRIBUTE) and its link, the id Node
 * finds it by in the printed PDF. Data only crosses to Node, which checks all of it.
 */
import { FIELD_SPEC_ATTRIBUTE } from './page-protocol.js';

export function collectFields(): unknown[] | undefined {
  const boxes = Array.from(document.querySelectorAll<HTMLAnchorElement>(`a[${FIELD_SPEC_ATTRIBUTE}]`));
  if (boxes.length === 0) return undefined;
  return boxes.map((box) => ({ ...(JSON.parse(box.getAttribute(FIELD_SPEC_ATTRIBUTE) ?? 'null') as object), link: box.href }));
}
