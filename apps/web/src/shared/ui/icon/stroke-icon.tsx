import type { ReactNode, SVGProps } from 'react';

export interface StrokeIconProps extends Omit<
  SVGProps<SVGSVGElement>,
  'children' | 'width' | 'height' | 'viewBox' | 'ref'
> {
  /** The path data of a one-path icon, on a 24 × 24 grid; or `children` for more shapes. */
  d?: string;
  /** The shapes of a many-part icon (paths, circles, rects); they inherit the stroke. */
  children?: ReactNode;
  /** Width and height in pixels; leave it out where the class sizes the icon. */
  size?: number;
}

/**
 * A line icon drawn in the text's colour on a 24 × 24 grid: no fill, a round-capped and
 * round-joined stroke (2 wide unless told). It is decoration beside words or in a named button,
 * so hidden from assistive technology and out of the tab order of old browsers (aria-hidden,
 * focusable=false) unless the caller says otherwise.
 */
export function StrokeIcon({
  d,
  children,
  size,
  strokeWidth = 2,
  strokeLinecap = 'round',
  strokeLinejoin = 'round',
  ...props
}: StrokeIconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap={strokeLinecap}
      strokeLinejoin={strokeLinejoin}
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {d ? <path d={d} /> : null}
      {children}
    </svg>
  );
}

/** Path data more than one place draws. */
export const ICON_PATHS = {
  /** A cross: a dialog's, a toast's, a file's Remove. */
  close: 'M6 6l12 12M18 6L6 18',
  /** A warning triangle with an exclamation mark. */
  warning:
    'M12 8v5M12 16.5v.5M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  /** A tick. */
  check: 'M5 12.5l4.5 4.5L19 7.5',
  /** A clock face. */
  clock: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
} as const;
