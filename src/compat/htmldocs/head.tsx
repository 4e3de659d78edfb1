/**
 * htmldocs' Head. Its children need no <head> element here: React hoists <title>, <meta> and
 * <link> into the document's head by itself, and a <style> applies wherever it stands.
 */
import type { ComponentPropsWithoutRef } from 'react';

export type HeadProps = Readonly<ComponentPropsWithoutRef<'head'>>;

export function Head({ children }: HeadProps) {
  return <>{children}</>;
}
