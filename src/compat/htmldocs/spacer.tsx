/** htmldocs' Spacer: a block of the given width and height (a number is pixels, `true` is 100%). */
import type { ComponentPropsWithoutRef, CSSProperties, FC } from 'react';

export interface SpacerProps extends ComponentPropsWithoutRef<'div'> {
  width?: number | string | boolean;
  height?: number | string | boolean;
  display?: string;
}

export type SpacerType = FC<SpacerProps>;

const spacerSize = (size: number | string | boolean | undefined) =>
  typeof size === 'number' ? `${size}px` : typeof size === 'string' ? size : size ? '100%' : '0';

export const Spacer: SpacerType = ({ width, height, display = 'block', style, ...rest }) => {
  const box: CSSProperties = {
    width: spacerSize(width),
    minWidth: spacerSize(width),
    height: spacerSize(height),
    minHeight: spacerSize(height),
    display,
    ...style,
  };
  return <div style={box} {...rest} />;
};
