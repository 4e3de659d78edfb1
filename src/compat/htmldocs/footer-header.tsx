/**
 * htmldocs' Footer (and a Header to match): a MarginBox whose children may be a render prop
 * `({ currentPage, totalPages }) => ...`, handed elements that print as the page's number and
 * the page count. A Footer without children prints "Page N of M", as htmldocs' does.
 */
import type { CSSProperties, ReactElement, ReactNode } from 'react';
import { PageNumber, TotalPages } from '../../react/counters.js';
import { MarginBox, type MarginBoxPosition, type PageType } from './margin-box.js';

type PageRenderProp = (params: { currentPage: ReactElement; totalPages: ReactElement }) => ReactNode;

export interface FooterProps {
  children?: PageRenderProp | ReactNode;
  /** Default `bottom-center` (a Header's: `top-center`). */
  position?: MarginBoxPosition;
  pageType?: PageType;
  className?: string;
  style?: CSSProperties;
  marginBoxStyles?: CSSProperties;
}

export type HeaderProps = FooterProps;

const COUNTERS = { currentPage: <PageNumber />, totalPages: <TotalPages /> };

const pageNumbers: PageRenderProp = ({ currentPage, totalPages }) => (
  <span className="page-number">
    Page {currentPage} of {totalPages}
  </span>
);

function resolve(children: FooterProps['children']): ReactNode {
  return typeof children === 'function' ? (children as PageRenderProp)(COUNTERS) : children;
}

export function Footer({ children = pageNumbers, position = 'bottom-center', ...rest }: FooterProps) {
  return (
    <MarginBox position={position} {...rest}>
      {resolve(children)}
    </MarginBox>
  );
}

export function Header({ children, position = 'top-center', ...rest }: HeaderProps) {
  return (
    <MarginBox position={position} {...rest}>
      {resolve(children)}
    </MarginBox>
  );
}
