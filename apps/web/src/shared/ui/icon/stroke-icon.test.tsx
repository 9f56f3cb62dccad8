import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ICON_PATHS, StrokeIcon } from './stroke-icon';

describe('StrokeIcon', () => {
  it('draws its path in the text colour, unfilled, hidden from assistive technology', () => {
    const { container } = render(
      <button type="button" aria-label="Close">
        <StrokeIcon size={16} d={ICON_PATHS.close} />
      </button>,
    );
    const svg = container.querySelector('svg')!;
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('focusable', 'false');
    expect(svg).toHaveAttribute('viewBox', '0 0 24 24');
    expect(svg).toHaveAttribute('width', '16');
    expect(svg).toHaveAttribute('height', '16');
    expect(svg).toHaveAttribute('fill', 'none');
    expect(svg).toHaveAttribute('stroke', 'currentColor');
    expect(svg).toHaveAttribute('stroke-width', '2');
    expect(svg).toHaveAttribute('stroke-linecap', 'round');
    expect(svg).toHaveAttribute('stroke-linejoin', 'round');
    expect(svg.querySelector('path')).toHaveAttribute('d', ICON_PATHS.close);
    // the button is named by its label alone: the icon adds nothing to it
    expect(screen.getByRole('button')).toHaveAccessibleName('Close');
  });

  it('takes its stroke from the caller, and leaves the size to the class when none is given', () => {
    const { container } = render(
      <StrokeIcon className="icon" strokeWidth={1.5} strokeLinecap="butt" strokeLinejoin="miter">
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3 7 9 6 9-6" />
      </StrokeIcon>,
    );
    const svg = container.querySelector('svg')!;
    expect(svg).toHaveClass('icon');
    expect(svg).not.toHaveAttribute('width');
    expect(svg).not.toHaveAttribute('height');
    expect(svg).toHaveAttribute('stroke-width', '1.5');
    expect(svg).toHaveAttribute('stroke-linecap', 'butt');
    expect(svg).toHaveAttribute('stroke-linejoin', 'miter');
    expect(svg.querySelectorAll('rect, path')).toHaveLength(2);
  });

  it('can be shown to assistive technology when it alone says something', () => {
    const { container } = render(
      <StrokeIcon
        size={20}
        d={ICON_PATHS.warning}
        aria-hidden={false}
        role="img"
        aria-label="Warning"
      />,
    );
    expect(screen.getByRole('img', { name: 'Warning' })).toBe(container.querySelector('svg'));
  });
});
