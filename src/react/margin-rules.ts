/**
 * Gathers the `@page` rules of every Header and Footer into the Document's one stylesheet.
 * Chromium resolves page rules of different stylesheets by their order alone (page selector
 * specificity counts only within one sheet), so a Header with its own `<style>` could undo a
 * `pages="first"` one written before it; see `marginRulesSheet`.
 */
import { createContext, useCallback, useContext, useId, useLayoutEffect, useMemo, useState } from 'react';
import { marginRulesSheet, type PageMarginRule } from './page-css.js';

interface Registry {
  /** Adds a rule, or replaces it in place (its position, hence its order, is kept). */
  set(id: string, rule: PageMarginRule): void;
  remove(id: string): void;
}

const MarginRulesContext = createContext<Registry | null>(null);
export const MarginRulesProvider = MarginRulesContext.Provider;

/** The Document's side: the sheet of every rule registered so far, and the function that registers one. */
export function useMarginRulesRegistry(): { sheet: string; registry: Registry } {
  // Insertion order is the components' order in the tree: layout effects run in tree order on mount.
  const [rules, setRules] = useState<ReadonlyMap<string, PageMarginRule>>(() => new Map());
  const set = useCallback((id: string, rule: PageMarginRule) => setRules((previous) => new Map(previous).set(id, rule)), []);
  const remove = useCallback(
    (id: string) =>
      setRules((previous) => {
        const next = new Map(previous);
        next.delete(id);
        return next;
      }),
    [],
  );
  const registry = useMemo(() => ({ set, remove }), [set, remove]);
  const sheet = useMemo(() => marginRulesSheet([...rules.values()]), [rules]);
  return { sheet, registry };
}

/**
 * A Header's or Footer's side: hands its rule to the enclosing Document, during the commit
 * (a layout effect's update is rendered before anything is printed). Returns false outside
 * a Document, where the component writes its own `<style>`.
 */
export function useMarginRule(rule: PageMarginRule): boolean {
  const registry = useContext(MarginRulesContext);
  const id = useId();
  const { pages, css } = rule;
  useLayoutEffect(() => registry?.set(id, { pages, css }), [registry, id, pages, css]);
  useLayoutEffect(() => () => registry?.remove(id), [registry, id]);
  return registry !== null;
}
