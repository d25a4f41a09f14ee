import type { ReactNode } from 'react';

/**
 * The frame around a wide table. It scrolls sideways on narrow screens, so it is a labelled,
 * focusable region: keyboard users can then scroll it with the arrow keys.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard.
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
